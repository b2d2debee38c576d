/** Why a step became active. */
export type StepEntryReason = "conditions" | "default" | "on_complete" | "initial" | "released";

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
  | { type: "tool_refused"; tool: string; reason: string; expected: string[] }
  /** The worker reported a tool it cannot run (at a turn's start), or that it can again. */
  | { type: "tool_unavailable"; tool: string; reason: string }
  | { type: "tool_available"; tool: string }
  /**
   * A step whose conditions held was not entered: `tool` (alternatives joined with "or") is
   * needed by its sequence (or is every tool it allows) and cannot run now, for `reason`.
   */
  | { type: "step_skipped"; step: string; tool: string; reason: string }
  /**
   * A sequence gave up control: its next tool failed `failures` times in a row (`cause`
   * "failed", `error` the last error) or became unavailable (`cause` "unavailable", `error` the
   * reason). `to` is the step that took over (absent: none).
   */
  | {
      type: "sequence_released";
      step: string;
      tool: string;
      cause: "failed" | "unavailable";
      failures: number;
      error: string;
      to?: string;
    };

export type OrchestrationEventType = OrchestrationEvent["type"];
