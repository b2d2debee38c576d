import { defineQuery, defineSignal, defineUpdate } from "@temporalio/workflow";
import type { ApprovalsView, DecideApprovalRequest, DecideApprovalResult } from "./approvals.ts";
import type {
  CancelTurnRequest,
  CancelTurnResult,
  EndSessionRequest,
  EventsQueryInput,
  LoggedEvent,
  SessionMessage,
  SessionView,
  TurnResult,
  UserMessage,
} from "./session-types.ts";

/** Fire-and-forget user message. */
export const userMessageSignal = defineSignal<[UserMessage]>("userMessage");
/** A user message whose caller waits for the turn's result; the validator rejects bad input. */
export const sendMessageUpdate = defineUpdate<TurnResult, [UserMessage]>("sendMessage");
/**
 * Stops a running turn: its model and tool activities are cancelled, the turn is recorded as
 * cancelled with what it had produced, and the next queued message runs. Idempotent.
 */
export const cancelTurnUpdate = defineUpdate<CancelTurnResult, [CancelTurnRequest]>("cancelTurn");
/**
 * A person's answer to a tool call waiting for approval (who, when, why, recorded in history).
 * The validator refuses an unknown id; an approval already decided fails with
 * `ApprovalAlreadyDecided` (two racing answers: the first wins).
 */
export const decideApprovalUpdate = defineUpdate<DecideApprovalResult, [DecideApprovalRequest]>(
  "decideApproval",
);
export const endSessionSignal = defineSignal<[EndSessionRequest]>("endSession");
/** Ends the session and returns its final state once every accepted message is answered. */
export const endSessionUpdate = defineUpdate<SessionView, [EndSessionRequest]>("endSessionAndWait");

export const stateQuery = defineQuery<SessionView>("state");
export const historyQuery = defineQuery<SessionMessage[]>("history");
export const allowedToolsQuery = defineQuery<string[]>("allowedTools");
export const eventsQuery = defineQuery<{ events: LoggedEvent[]; next: number }, [EventsQueryInput]>(
  "events",
);
/** The tool calls waiting for approval and the latest decided ones. */
export const approvalsQuery = defineQuery<ApprovalsView>("approvals");
