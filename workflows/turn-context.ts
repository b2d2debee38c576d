import type { OrchestrationState, ReportedTokenUsage } from "../src/orchestration/index.ts";
import type { SessionEvent, StreamEvent, ToolCallRecord } from "../src/session/session-types.ts";

/** What a turn's tools and model steps need from the session, without owning its state. */
export interface TurnContext {
  readonly sessionId: string;
  readonly modelId: string;
  state(): OrchestrationState;
  /** The running summary of turns no longer re-sent to the model, if any. */
  summary(): string | undefined;
  /** Records a tool the orchestrator allowed and that completed, and re-evaluates the step. */
  applyToolUsed(toolName: string): void;
  /** Records that an allowed tool ran and failed; a sequence stuck on it may be released. */
  applyToolFailed(toolName: string, error: string): void;
  /** This turn's notes for the user so far (steps skipped or released, and why). */
  notes(): readonly string[];
  recordToolCall(record: ToolCallRecord): void;
  /** Whether this turn already recorded the call (executed, refused or failed). */
  hasToolCall(toolCallId: string): boolean;
  /** Adds one model call's reported usage to the session totals. */
  applyUsage(usage: ReportedTokenUsage): void;
  emit(event: SessionEvent): void;
  /** Names the live-stream topic of a model call as it starts (see SessionStream). */
  openModelTopic(): string;
  /** Publishes to live subscribers only (not the event log continue-as-new carries). */
  publish(event: StreamEvent): void;
}
