import type { ModelMessage } from "ai";
import { CancellationScope } from "@temporalio/workflow";
import type { OrchestrationEvent, OrchestrationState } from "../src/orchestration/index.ts";
import { modelIdOrError } from "../src/llm/model-id.ts";
import type { SessionMessage, TurnResult } from "../src/session/session-types.ts";
import { turnStateOf } from "../src/session/turn-state.ts";
import { compactHistory } from "./history-compaction.ts";
import { answerSteered } from "./arrival-policy.ts";
import { recordAnswer } from "./message-intake.ts";
import { runModelLoop, type ModelLoopOutcome } from "./run-turn.ts";
import type { Session } from "./session.ts";
import type { ActiveTurn } from "./session-state.ts";
import { reportedTools } from "./tool-availability.ts";
import { TurnContext } from "./turn-context.ts";

/**
 * The orchestrator's decision on a new message. A template that reached the workflow without
 * the loader's checks (a workflow started by hand) can make it throw: that fails this turn,
 * with the reason, instead of every workflow task.
 */
function decide(
  session: Session,
  text: string,
): { state: OrchestrationState; events: readonly OrchestrationEvent[]; error?: string } {
  const current = session.state.orchestration;
  try {
    return session.orchestrator.onUserMessage(current, text);
  } catch (error) {
    const reason = error instanceof Error ? error.message : String(error);
    return {
      state: { ...current, turn: current.turn + 1 },
      events: [],
      error: `the session's template cannot decide on this message: ${reason}; start sessions with a template the loader accepts (agentdock-temporal agents checks them)`,
    };
  }
}

/**
 * Runs the turn's model loop in a scope of its own, which `cancelTurn` cancels: the model and
 * tool activities it started are cancelled, and nothing outside it (history compaction, the
 * next turn) is.
 */
async function cancellable<T>(session: Session, work: () => Promise<T>): Promise<T> {
  const scope = new CancellationScope();
  session.turnScope = scope;
  try {
    return await scope.run(work);
  } finally {
    session.turnScope = undefined;
  }
}

/**
 * What the conversation keeps of a stopped turn: the text written so far, marked as stopped,
 * so the model knows next turn that the user cut it short (and why nothing more follows).
 */
function stoppedReply(text: string): SessionMessage {
  const note = "[The user stopped this reply here.]";
  return { role: "assistant", content: text === "" ? note : `${text}\n\n${note}` };
}

/** Runs the next pending message as one turn: decide, call the model, answer, compact. */
export async function runNextTurn(session: Session): Promise<TurnResult | undefined> {
  const { state, template } = session;
  const message = state.pending[0];
  if (message === undefined) return undefined;
  // Every decision adds one to the turn number (the orchestrator's and the fallback's alike).
  const active: ActiveTurn = {
    messageId: message.messageId,
    turn: state.orchestration.turn + 1,
    cancelReason: undefined,
    steered: [],
  };
  state.activeTurn = active;
  state.status = "running";
  state.turnNotes = [];
  // Before the step is chosen: a step needing a tool this worker cannot run is not entered.
  const reported = await reportedTools(state, template.tools);
  if (reported?.pluginTools !== undefined) session.usePluginTools(reported.pluginTools);
  const availability =
    reported === undefined
      ? undefined
      : session.orchestrator.onToolAvailability(state.orchestration, reported.unavailable);
  if (availability !== undefined) state.orchestration = availability.state;
  session.stream.dropBefore(state.lastTurnStart);
  state.lastTurnStart = session.stream.offset;
  const decision = decide(session, message.text);
  state.orchestration = decision.state;
  session.emit({
    type: "turn_started",
    messageId: message.messageId,
    turn: state.orchestration.turn,
    text: message.text,
  });
  for (const event of [...(availability?.events ?? []), ...decision.events])
    session.emit({ type: "orchestration", event });
  state.messages.push({ role: "user", content: message.text });

  const model = modelIdOrError(template.llm);
  const context = new TurnContext(session, "error" in model ? "" : model.modelId);
  const failure = decision.error ?? ("error" in model ? model.error : undefined);
  const outcome: ModelLoopOutcome =
    failure !== undefined || "error" in model
      ? { text: "", responseMessages: [], error: failure }
      : active.cancelReason !== undefined
        ? { text: "", responseMessages: [], cancelled: true }
        : await cancellable(session, () => runModelLoop(context, state.messages as ModelMessage[]));
  state.messages.push(...(outcome.responseMessages as SessionMessage[]));
  const cancelReason = outcome.cancelled ? active.cancelReason : undefined;
  if (cancelReason !== undefined) state.messages.push(stoppedReply(outcome.text));

  state.pending.shift();
  if (outcome.error !== undefined) {
    // The workflow's Date is the time of the workflow task, the same on every replay.
    // eslint-disable-next-line no-restricted-syntax
    const at = new Date().toISOString();
    state.lastFailure = { turn: state.orchestration.turn, at, error: outcome.error };
  }
  const result: TurnResult = {
    messageId: message.messageId,
    turn: state.orchestration.turn,
    text: outcome.text,
    toolCalls: context.toolCalls,
    ...(outcome.error === undefined ? {} : { error: outcome.error }),
    ...(cancelReason === undefined ? {} : { cancelled: true as const }),
    state: turnStateOf(session.view()),
  };
  recordAnswer(state, result);
  answerSteered(session, active.steered, result);
  state.activeTurn = undefined;
  session.turnSteering = undefined;
  session.emit({
    type: "turn_finished",
    messageId: message.messageId,
    turn: result.turn,
    text: result.text,
    ...(outcome.error === undefined ? {} : { error: outcome.error }),
    ...(cancelReason === undefined ? {} : { cancelled: true as const, cancelReason }),
  });
  // The reply is out (the update answers from `results`); the summary is written after it.
  await compactHistory(session);
  state.status = outcome.error === undefined ? "idle" : "failed";
  return result;
}
