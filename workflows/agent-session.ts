import {
  ApplicationFailure,
  allHandlersFinished,
  condition,
  continueAsNew,
} from "@temporalio/workflow";
import { parseDuration } from "../src/orchestration/index.ts";
import type { SessionInput, SessionResult } from "../src/session/session-types.ts";
import { carrySession, continueAsNewDue } from "./continue-as-new.ts";
import { hasAwaitedPending, installMessageIntake } from "./message-intake.ts";
import { Session } from "./session.ts";
import { installSessionEnd, requestEnd } from "./session-end.ts";
import { installSessionQueries } from "./session-queries.ts";
import { installTemplateUpgrades } from "./template-upgrade.ts";
import { installToolApproval } from "./tool-approval.ts";
import { runNextTurn } from "./turn.ts";
import { installTurnCancel } from "./turn-cancel.ts";
import { SessionVisibility } from "./visibility.ts";

/**
 * The session, or a deliberate failure of the workflow when its template cannot run at all (a
 * workflow started by hand with a template the loader would refuse): failing on purpose ends
 * it with the reason, where an exception here would fail every workflow task forever.
 */
function sessionFor(input: SessionInput): { session: Session; idleTimeoutMs: number } {
  try {
    return {
      session: new Session(input),
      idleTimeoutMs: parseDuration(input.template.session.idleTimeout),
    };
  } catch (error) {
    throw ApplicationFailure.nonRetryable(
      `the session's template cannot run: ${error instanceof Error ? error.message : String(error)}; start sessions with a template the loader accepts (agentdock-temporal agents checks them)`,
      "InvalidTemplate",
    );
  }
}

/**
 * One chat session with one agent, alive as long as the conversation. Messages are handled
 * strictly in arrival order, one turn at a time; each messageId once. The state lives in one
 * `Session`; each concern is a module over it, composed here: handlers first, then the loop.
 */
export async function agentSession(input: SessionInput): Promise<SessionResult> {
  const { session, idleTimeoutMs } = sessionFor(input);
  const { state } = session;
  const visibility = new SessionVisibility(session);
  session.observe((event) => {
    visibility.onEvent(event);
  });
  // Each concern registers its own handlers over the one Session; a new concern (approvals, a
  // template upgrade) is one more install here, and a between-turns step goes in the loop below
  // right before `runNextTurn`, never inside another module.
  installMessageIntake(session);
  installSessionEnd(session);
  installSessionQueries(session);
  installTurnCancel(session);
  const upgrades = installTemplateUpgrades(session);
  installToolApproval(session);

  visibility.publish();
  for (;;) {
    // Between turns: a template upgrade asked for during a turn applies here.
    if (upgrades.applyWaiting()) visibility.publish();
    const continuing = continueAsNewDue(input);
    // Before continue-as-new, answer every message whose caller waits (updates); messages that
    // came by signal ride along to the next run.
    if (state.pending.length > 0 && (!continuing || hasAwaitedPending(state))) {
      visibility.publish();
      await runNextTurn(session);
      visibility.publish();
      continue;
    }
    if (continuing) {
      // Waiting stream polls would hold the run open: release them (subscribers follow the chain).
      session.stream.detachPollers();
      if (allHandlersFinished()) {
        session.emit({ type: "continued_as_new", run: state.run + 1 });
        return await continueAsNew<typeof agentSession>({
          ...session.input,
          carried: carrySession(session),
        });
      }
      await condition(
        () => allHandlersFinished() || hasAwaitedPending(state) || upgrades.waiting(),
      );
      continue;
    }
    if (state.ending) break;
    const woke = await condition(
      () => state.pending.length > 0 || state.ending || upgrades.waiting(),
      idleTimeoutMs,
    );
    if (!woke) requestEnd(session, `idle for ${input.template.session.idleTimeout}`);
  }

  state.status = "ended";
  session.emit({ type: "session_ended", reason: state.endReason ?? "ended" });
  visibility.publish();
  session.stream.detachPollers();
  await condition(allHandlersFinished);
  return {
    sessionId: input.sessionId,
    reason: state.endReason ?? "ended",
    turns: state.orchestration.turn,
    state: session.view(),
  };
}
