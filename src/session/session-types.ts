import type { WorkflowStreamState } from "@temporalio/workflow-streams/workflow";
import { z } from "zod";
import { MAX_MESSAGE_CHARS } from "./constants.ts";
import { agentIdSchema, messageIdSchema } from "./ids.ts";
import { tenantIdSchema } from "./tenants.ts";
import type { ApprovalDecision, ApprovalRecord } from "./approvals.ts";
import type {
  AgentTemplate,
  OrchestrationEvent,
  OrchestrationState,
  TokenUsage,
} from "../orchestration/index.ts";
import { sharedAcrossSessions } from "../orchestration/shared-across-sessions.ts";

/** Zod issues as one line that names each field: `messageId: expected string, received number`. */
export function formatIssues(error: z.ZodError): string {
  return error.issues
    .map((issue) => {
      const path = issue.path
        .map((key, index) =>
          typeof key === "number" ? `[${key}]` : `${index === 0 ? "" : "."}${String(key)}`,
        )
        .join("");
      return path === "" ? issue.message : `${path}: ${issue.message}`;
    })
    .join("; ");
}

/** A user message as signals and updates carry it. Validated in the workflow (never trusted). */
export const userMessageSchema = sharedAcrossSessions(
  "src/session/session-types:userMessageSchema",
  () =>
    z.strictObject({
      messageId: messageIdSchema,
      text: z
        .string()
        .refine((text) => text.trim().length > 0, "the message is empty")
        .refine(
          (text) => text.length <= MAX_MESSAGE_CHARS,
          `the message is longer than ${MAX_MESSAGE_CHARS} characters`,
        ),
      /** The agent the sender expects the session to run; a different one refuses the message. */
      agentId: agentIdSchema.optional(),
      /** The sender's tenant; a session of another tenant refuses the message as if it did not exist. */
      tenant: tenantIdSchema.optional(),
    }),
);
export type UserMessage = z.infer<typeof userMessageSchema>;

/**
 * Which turn to stop: the one answering `messageId`, or turn number `turn`, or (neither) the
 * turn running now. Both may be given; then both must match.
 */
export const cancelTurnRequestSchema = sharedAcrossSessions(
  "src/session/session-types:cancelTurnRequestSchema",
  () =>
    z.strictObject({
      messageId: messageIdSchema.optional(),
      turn: z.number().int().positive().optional(),
      reason: z.string().max(500).optional(),
    }),
);
export type CancelTurnRequest = z.infer<typeof cancelTurnRequestSchema>;

/** The `cancelTurn` update's answer: what was stopped, or why nothing was. */
export interface CancelTurnResult {
  /** True when the turn asked for is (now or already) recorded as cancelled. */
  cancelled: boolean;
  /** The turn the answer is about, when one matched. */
  turn?: number;
  messageId?: string;
  /** In words: "turn 3 (message m1) was cancelled", "no turn is running", … */
  detail: string;
  /** The matched turn's result: for a cancelled one, what it had produced. */
  result?: TurnResult;
}

export const endSessionRequestSchema = sharedAcrossSessions(
  "src/session/session-types:endSessionRequestSchema",
  () => z.strictObject({ reason: z.string().max(500).optional() }),
);
export type EndSessionRequest = z.infer<typeof endSessionRequestSchema>;

/**
 * Where a session is: waiting for a message (`idle`), in a turn (`running`), in a turn whose tool
 * call waits for a person (`awaiting_approval`), waiting after a turn that ended with an error
 * (`failed`, until the next turn starts), or closed (`ended`).
 */
export type SessionStatus = "idle" | "running" | "awaiting_approval" | "failed" | "ended";

/** The last turn that ended with an error: shown in the Web UI until a later turn fails. */
export interface TurnFailure {
  turn: number;
  /** Workflow time when the turn ended, ISO 8601. */
  at: string;
  error: string;
}

/** A message of the conversation as the session keeps it (AI SDK model messages, plain JSON). */
export type SessionMessage = Record<string, unknown> & {
  role: "user" | "assistant" | "tool" | "system";
};

export interface ToolCallRecord {
  toolCallId: string;
  toolName: string;
  status: "ok" | "refused" | "error";
  /** The refusal reason or error message the model received. */
  detail?: string;
}

/** What one turn produced: the `sendMessage` update's result. */
export interface TurnResult {
  messageId: string;
  turn: number;
  text: string;
  toolCalls: ToolCallRecord[];
  /** Set when the turn failed (provider error, exhausted script…); the session stays usable. */
  error?: string;
  /**
   * Set when a person stopped the turn (`cancelTurn`): `text` is what the model had written
   * by then and `toolCalls` what had run; the conversation keeps both for the next turn.
   */
  cancelled?: true;
  /**
   * Set on the result of a message that joined a running turn (`session.arrivalPolicy:
   * "steer"`): the message id whose turn it joined; turn, text and tool calls are that turn's.
   */
  joinedTurnOf?: string;
  /**
   * The session as the turn ended, without `unavailableTools` (`STATE_ONLY_FIELDS`: the `state`
   * query and `SessionClient.withSessionFacts` have it).
   */
  state: SessionView;
}

/** The `state` query: where the session is, in words a person and the Web UI can read. */
export interface SessionView {
  sessionId: string;
  agentId: string;
  status: SessionStatus;
  activeStep: string | null;
  sequenceIndex: number;
  sequenceLength: number;
  allowedTools: string[];
  /** Agent tools the worker of the last turn cannot run, with the reason (absent: none). */
  unavailableTools?: Record<string, string>;
  recentlyUsedTools: string[];
  toolCount: number;
  turn: number;
  cumulativeTokenUsage: TokenUsage;
  pendingMessages: number;
  run: number;
  /** Turns folded into the running summary (no longer re-sent to the model verbatim). */
  summarizedTurns: number;
  /** The last step entered other than the default step (what `LastStep` filters on). */
  lastStep?: string;
  lastFailure?: TurnFailure;
  endReason?: string;
  /** The content hash of the template the session runs (absent: started before versions). */
  templateVersion?: string;
  /** The tool call waiting for a person's approval (status `awaiting_approval`). */
  awaitingApproval?: ApprovalRecord;
}

/** Everything that happens in a session, in order, for live viewers (offset = position). */
export type SessionEvent =
  | { type: "turn_started"; messageId: string; turn: number; text: string }
  | { type: "orchestration"; event: OrchestrationEvent }
  | { type: "model_step"; step: number; activeStep: string | null; offeredTools: string[] }
  | { type: "tool_started"; toolCallId: string; toolName: string }
  | {
      type: "tool_finished";
      toolCallId: string;
      toolName: string;
      status: ToolCallRecord["status"];
      detail?: string;
    }
  | { type: "token_usage"; usage: TokenUsage; total: TokenUsage }
  | {
      type: "turn_finished";
      messageId: string;
      turn: number;
      text: string;
      error?: string;
      /** The turn was stopped by a `cancelTurn` request; `text` is what it had written. */
      cancelled?: true;
      /** Why it was stopped, as the request said (or "cancelled by request"). */
      cancelReason?: string;
    }
  | {
      type: "approval_requested";
      approvalId: string;
      toolCallId: string;
      tool: string;
      input: unknown;
      step: string | null;
      rule: string;
      requestedAt: string;
      expiresAt?: string;
    }
  | ({
      type: "approval_decided";
      approvalId: string;
      toolCallId: string;
      tool: string;
    } & ApprovalDecision)
  | { type: "message_rejected"; reason: string }
  /** A message that arrived during turn `turn` joined it (`session.arrivalPolicy: "steer"`). */
  | { type: "message_steered"; messageId: string; turn: number; text: string }
  | { type: "continued_as_new"; run: number }
  | { type: "history_summarized"; turns: number; summaryChars: number }
  | { type: "history_summary_failed"; error: string }
  | { type: "session_ended"; reason: string }
  | { type: "session_forked"; parentSession: string; forkedAt: number }
  | {
      type: "template_upgraded";
      from: string | null;
      to: string;
      /** What could not be carried over as it was (a step the new template lacks), in words. */
      notes: string[];
    };

/**
 * What the live stream carries on its events topic: every session event, plus tool outputs
 * (kept out of the event log, which continue-as-new carries, because outputs can be large).
 */
export type StreamEvent =
  SessionEvent | { type: "tool_output"; toolCallId: string; toolName: string; output: unknown };

export interface LoggedEvent {
  offset: number;
  event: SessionEvent;
}

/** What continue-as-new carries into the next run: nothing a conversation needs is lost. */
export interface CarriedSession {
  state: OrchestrationState;
  messages: SessionMessage[];
  pending: UserMessage[];
  processedIds: string[];
  results: TurnResult[];
  events: LoggedEvent[];
  nextEventOffset: number;
  run: number;
  /** The running summary of the turns no longer re-sent, and how many turns it covers. */
  summary?: string;
  summarizedTurns?: number;
  /** The live stream's recent items and offsets, so subscribers resume across runs. */
  stream?: WorkflowStreamState;
  lastStep?: string;
  lastFailure?: TurnFailure;
  /** Decided approvals (bounded), so a late answer to one is told it was decided. */
  approvals?: ApprovalRecord[];
}

export interface SessionSettings {
  /** Continue-as-new once history has this many events (the server may suggest it sooner). */
  continueAsNewAfterEvents?: number;
}

/** The single workflow input. The template is a validated snapshot: edits never reach a running session. */
export interface SessionInput {
  sessionId: string;
  template: AgentTemplate;
  /** The template's content hash (src/agents/template-version.ts); absent in older sessions. */
  templateVersion?: string;
  /** The creator's tenant (absent for sessions started before tenants: the default tenant). */
  tenant?: string;
  settings?: SessionSettings;
  carried?: CarriedSession;
}

export interface SessionResult {
  sessionId: string;
  reason: string;
  turns: number;
  state: SessionView;
}

export interface EventsQueryInput {
  /** Return events with offset >= this. */
  after: number;
}
