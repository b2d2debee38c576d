// The JSON the API answers, as the console reads it (src/server and src/client define it).

export interface ApiErrorBody {
  error?: { code?: string; message?: string };
}

/** `POST /api/sessions/:id/cancel`'s answer (the server's CancelTurnResult, as far as read here). */
export interface CancelTurnAnswer {
  cancelled: boolean;
  turn?: number;
  messageId?: string;
  detail: string;
}

export interface ConsoleConfig {
  temporalUiUrl: string | null;
  namespace: string;
  tenant: string;
}

export interface AgentSummary {
  id: string;
  valid: boolean;
  /** The template's content hash as the server's folders hold it now. */
  version?: string;
  name?: string;
  description?: string;
  steps?: string[];
  tools?: string[];
  error?: string;
}

export interface SessionListing {
  sessionId: string;
  workflowId: string;
  agentId: string | null;
  activeStep: string | null;
  status: string;
  sessionStatus: string | null;
  turns: number | null;
  startTime: string;
  closeTime: string | null;
  lastActivity: string;
}

export interface TokenUsage {
  inputTokens: number;
  outputTokens: number;
  totalTokens: number;
}

export interface SessionView {
  sessionId: string;
  agentId: string;
  status: "idle" | "running" | "awaiting_approval" | "failed" | "ended";
  activeStep: string | null;
  sequenceIndex: number;
  sequenceLength: number;
  allowedTools: string[];
  turn: number;
  cumulativeTokenUsage: TokenUsage;
  pendingMessages: number;
  run: number;
  /** Turns folded into the running summary: the first message the chat shows is the next one. */
  summarizedTurns: number;
  /** The content hash of the template the session runs (absent: started before versions). */
  templateVersion?: string;
}

/** An orchestration event (src/orchestration); kinds this console does not know render as JSON. */
export type OrchestrationEvent = { type: string } & Record<string, unknown>;

export interface WithheldTool {
  tool: string;
  reason: string;
}

export type TimelineEntry =
  | { kind: "orchestration"; offset: number; event: OrchestrationEvent }
  | {
      kind: "model_call";
      offset: number;
      step: number;
      activeStep: string | null;
      offeredTools: string[];
      withheldTools: WithheldTool[];
      usage?: TokenUsage;
      totalTokens?: number;
    }
  | {
      kind: "tool_call";
      offset: number;
      toolCallId: string;
      toolName: string;
      status: "running" | "ok" | "error" | "refused";
      input?: unknown;
      output?: unknown;
      detail?: string;
      durationMs?: number;
      attempts?: number;
    }
  | { kind: "event"; offset: number; type: string; event: Record<string, unknown> };

export interface TimelineTurn {
  turn: number;
  messageId: string;
  text: string;
  status: "running" | "finished" | "failed" | "cancelled";
  reply?: string;
  error?: string;
  entries: TimelineEntry[];
}

export interface SessionTimeline {
  sessionId: string;
  turns: TimelineTurn[];
  events: { offset: number; type: string; event: Record<string, unknown> }[];
}
