import { workflowInfo } from "@temporalio/workflow";
import { DEFAULT_CONTINUE_AS_NEW_AFTER_EVENTS } from "../src/session/constants.ts";
import type { CarriedSession, SessionInput } from "../src/session/session-types.ts";
import type { Session } from "./session.ts";
import { decidedApprovals } from "./tool-approval.ts";

/** Whether this run should hand over to a new one (the server suggests it, or history is long). */
export function continueAsNewDue(input: SessionInput): boolean {
  const threshold =
    input.settings?.continueAsNewAfterEvents ?? DEFAULT_CONTINUE_AS_NEW_AFTER_EVENTS;
  const info = workflowInfo();
  return info.continueAsNewSuggested || info.historyLength >= threshold;
}

/** Everything the next run needs: nothing a conversation needs is lost. */
export function carrySession(session: Session): CarriedSession {
  const { state } = session;
  const { events, nextEventOffset } = session.log.snapshot();
  session.stream.dropBefore(state.lastTurnStart);
  return {
    state: state.orchestration,
    messages: state.messages,
    ...(state.summary === undefined ? {} : { summary: state.summary }),
    summarizedTurns: state.summarizedTurns,
    pending: state.pending,
    processedIds: [...state.processedIds],
    results: [...state.results.values()],
    events,
    nextEventOffset,
    run: state.run,
    stream: session.stream.getState(),
    ...(state.lastStep === undefined ? {} : { lastStep: state.lastStep }),
    ...(state.lastFailure === undefined ? {} : { lastFailure: state.lastFailure }),
    ...(state.approvals.length === 0 ? {} : { approvals: decidedApprovals(state) }),
  };
}
