import { condition, setHandler } from "@temporalio/workflow";
import { cancelTurnUpdate } from "../src/session/messages.ts";
import {
  cancelTurnRequestSchema,
  formatIssues,
  type CancelTurnRequest,
  type CancelTurnResult,
  type TurnResult,
} from "../src/session/session-types.ts";
import type { Session } from "./session.ts";
import type { ActiveTurn, SessionState } from "./session-state.ts";

const DEFAULT_REASON = "cancelled by request";

function named(turn: number, messageId: string): string {
  return `turn ${turn} (message ${messageId})`;
}

function matches(active: ActiveTurn, request: CancelTurnRequest): boolean {
  if (request.messageId !== undefined && request.messageId !== active.messageId) return false;
  return request.turn === undefined || request.turn === active.turn;
}

/** The answer about a turn that already has its result. */
function answered(result: TurnResult): CancelTurnResult {
  const name = named(result.turn, result.messageId);
  const cancelled = result.cancelled === true;
  return {
    cancelled,
    turn: result.turn,
    messageId: result.messageId,
    detail: cancelled ? `${name} was cancelled` : `${name} had already finished; nothing to cancel`,
    result,
  };
}

/** Why nothing can be cancelled for a request that matches no running turn. */
function nothingToCancel(state: SessionState, request: CancelTurnRequest): CancelTurnResult {
  const { messageId, turn } = request;
  const results = [...state.results.values()];
  const result =
    messageId === undefined
      ? results.find((candidate) => candidate.turn === turn)
      : state.results.get(messageId);
  if (result !== undefined && (turn === undefined || result.turn === turn)) return answered(result);
  const running = state.activeTurn;
  const now =
    running === undefined
      ? "no turn is running"
      : `the running turn is ${named(running.turn, running.messageId)}`;
  if (messageId !== undefined) {
    if (state.pending.some((message) => message.messageId === messageId)) {
      return {
        cancelled: false,
        messageId,
        detail: `message ${messageId} is queued and has not started (${now}); it can be cancelled once its turn runs`,
      };
    }
    const known = state.processedIds.has(messageId);
    return {
      cancelled: false,
      messageId,
      detail: known
        ? `message ${messageId} was answered long ago; nothing to cancel`
        : `this session has no message ${messageId} (${now})`,
    };
  }
  if (turn !== undefined) {
    const current = state.orchestration.turn;
    return {
      cancelled: false,
      turn,
      detail:
        turn > current
          ? `turn ${turn} has not started (${now})`
          : `turn ${turn} is not running (${now}); nothing to cancel`,
    };
  }
  return { cancelled: false, detail: `${now}; nothing to cancel` };
}

/**
 * Asks the running turn to stop: its model and tool activities are cancelled (the workflow stops
 * waiting at once; a model call without an abort signal may still finish on its worker, and its
 * late stream parts are dropped), and the turn ends as cancelled with what it had produced.
 */
export function cancelActiveTurn(session: Session, reason: string): ActiveTurn | undefined {
  const active = session.state.activeTurn;
  if (active === undefined) return undefined;
  active.cancelReason ??= reason;
  session.turnScope?.cancel();
  return active;
}

/**
 * The `cancelTurn` update: idempotent (a repeat gets the same answer), it answers once the turn
 * is recorded as cancelled, with its result, or says why nothing was cancelled.
 */
export function installTurnCancel(session: Session): void {
  const { state } = session;
  setHandler(
    cancelTurnUpdate,
    async (request) => {
      const active = state.activeTurn;
      if (active === undefined || !matches(active, request)) {
        return nothingToCancel(state, request);
      }
      cancelActiveTurn(session, request.reason ?? DEFAULT_REASON);
      await condition(() => state.results.has(active.messageId));
      const result = state.results.get(active.messageId);
      if (result === undefined) return nothingToCancel(state, request);
      const answer = answered(result);
      return answer.cancelled
        ? answer
        : {
            ...answer,
            detail: `${named(result.turn, result.messageId)} finished before it could be stopped`,
          };
    },
    {
      validator: (request) => {
        const parsed = cancelTurnRequestSchema.safeParse(request);
        if (!parsed.success) throw new Error(formatIssues(parsed.error));
      },
    },
  );
}
