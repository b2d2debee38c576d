/** Why a step became active. */
export type StepEntryReason = "conditions" | "default" | "on_complete" | "initial";

/** What changed in an orchestration decision, and why. Plain JSON. */
export type OrchestrationEvent =
  | {
      type: "step_entered";
      step: string;
      from?: string;
      reason: StepEntryReason;
      /** The conditions that held, described (for reason "conditions"). */
      conditions: string[];
    }
  | {
      type: "sequence_advanced";
      step: string;
      tool: string;
      position: number;
      length: number;
      next: string[];
    }
  | { type: "sequence_completed"; step: string; tool?: string }
  | { type: "sequence_reset"; step: string; fromIndex: number; trigger: string }
  | { type: "sequence_restarted"; step: string; conditions: string[] }
  | { type: "tool_recorded"; tool: string; toolCount: number }
  | { type: "tool_outside_sequence"; step: string; tool: string; expected: string[] }
  | { type: "tool_refused"; tool: string; reason: string; expected: string[] };

export type OrchestrationEventType = OrchestrationEvent["type"];
