import type { OrchestrationState } from "../src/orchestration/index.ts";
import type { SessionEvent, StreamEvent, ToolCallRecord } from "../src/session/session-types.ts";
import type { Session } from "./session.ts";

/**
 * One turn as its tools see it: the session that owns the state, the model this turn runs,
 * and the tool calls recorded so far. Every change goes to the session, so the turn holds no
 * state of its own besides its calls; the model loop uses `session` directly.
 */
export class TurnContext {
  readonly session: Session;
  readonly modelId: string;
  /** This turn's tool calls in order (executed, refused or failed): the result lists them. */
  readonly toolCalls: ToolCallRecord[] = [];

  constructor(session: Session, modelId: string) {
    this.session = session;
    this.modelId = modelId;
  }

  get sessionId(): string {
    return this.session.input.sessionId;
  }

  state(): OrchestrationState {
    return this.session.state.orchestration;
  }

  /** Records a tool the orchestrator allowed and that completed, and re-evaluates the step. */
  applyToolUsed(toolName: string): void {
    this.session.apply(this.session.orchestrator.onToolUsed(this.state(), toolName));
  }

  /** Records that an allowed tool ran and failed; a sequence stuck on it may be released. */
  applyToolFailed(toolName: string, error: string): void {
    this.session.apply(this.session.orchestrator.onToolFailed(this.state(), toolName, error));
  }

  recordToolCall(record: ToolCallRecord): void {
    this.toolCalls.push(record);
  }

  /** Whether this turn already recorded the call (executed, refused or failed). */
  hasToolCall(toolCallId: string): boolean {
    return this.toolCalls.some((call) => call.toolCallId === toolCallId);
  }

  emit(event: SessionEvent): void {
    this.session.emit(event);
  }

  /** Publishes to live subscribers only (not the event log continue-as-new carries). */
  publish(event: StreamEvent): void {
    this.session.stream.publishEvent(event);
  }
}
