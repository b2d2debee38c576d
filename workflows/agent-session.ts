import {
  ApplicationFailure,
  allHandlersFinished,
  condition,
  continueAsNew,
  setHandler,
  workflowInfo,
} from "@temporalio/workflow";
import { parseDuration } from "../src/orchestration/index.ts";
import { DEFAULT_CONTINUE_AS_NEW_AFTER_EVENTS } from "../src/session/constants.ts";
import {
  allowedToolsQuery,
  endSessionSignal,
  endSessionUpdate,
  eventsQuery,
  historyQuery,
  sendMessageUpdate,
  stateQuery,
  userMessageSignal,
} from "../src/session/messages.ts";
import { ownerMismatch } from "../src/session/message-owner.ts";
import {
  endSessionRequestSchema,
  formatIssues,
  userMessageSchema,
  type SessionInput,
  type SessionResult,
  type UserMessage,
} from "../src/session/session-types.ts";
import { SessionCore } from "./session-core.ts";
import { installTemplateUpgrades } from "./template-upgrade.ts";
import { SessionVisibility } from "./visibility.ts";

/**
 * The session's core, or a deliberate failure of the workflow when its template cannot run at
 * all (a workflow started by hand with a template the loader would refuse): failing on purpose
 * ends it with the reason, where an exception here would fail every workflow task forever.
 */
function sessionFor(input: SessionInput): { session: SessionCore; idleTimeoutMs: number } {
  try {
    return {
      session: new SessionCore(input),
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
 * strictly in arrival order, one turn at a time; each messageId once. The orchestration state
 * lives here, so a session survives worker and server restarts exactly where it was.
 */
export async function agentSession(input: SessionInput): Promise<SessionResult> {
  const { session, idleTimeoutMs } = sessionFor(input);
  const visibility = new SessionVisibility(session);
  session.observer = (event) => {
    visibility.onEvent(event);
  };
  // An object, not a `let`: handlers set it, and TypeScript cannot see closures narrow a local.
  const lifecycle = { ending: false };

  const owner = {
    sessionId: input.sessionId,
    // A forced upgrade can change the agent: messages are checked against the current one.
    get agentId() {
      return session.input.template.id;
    },
    tenant: input.tenant,
  };
  const accept = (message: unknown, source: "signal" | "update"): UserMessage | undefined => {
    const parsed = userMessageSchema.safeParse(message);
    if (!parsed.success) {
      session.emit({
        type: "message_rejected",
        reason: `${source}: ${formatIssues(parsed.error)}`,
      });
      return undefined;
    }
    const mismatch = ownerMismatch(parsed.data, owner);
    if (mismatch !== undefined) {
      session.emit({ type: "message_rejected", reason: `${source}: ${mismatch.message}` });
      return undefined;
    }
    if (lifecycle.ending) {
      session.emit({
        type: "message_rejected",
        reason: `${source} after the session ended: ${parsed.data.messageId}`,
      });
      return undefined;
    }
    session.enqueue(parsed.data);
    return parsed.data;
  };

  setHandler(userMessageSignal, (message) => {
    accept(message, "signal");
  });

  const validateMessage = (message: UserMessage): void => {
    const parsed = userMessageSchema.safeParse(message);
    if (!parsed.success) throw new Error(formatIssues(parsed.error));
    const mismatch = ownerMismatch(parsed.data, owner);
    if (mismatch !== undefined) {
      throw ApplicationFailure.nonRetryable(mismatch.message, mismatch.type);
    }
    if (lifecycle.ending && !session.isKnown(parsed.data.messageId)) {
      throw new Error(`the session has ended (${session.endReason ?? "ended"}); start a new one`);
    }
  };
  setHandler(
    sendMessageUpdate,
    async (message) => {
      const id = message.messageId;
      if (session.wasAnswered(id) && session.resultFor(id) === undefined) {
        throw ApplicationFailure.nonRetryable(
          `message ${id} was answered long ago; its result is no longer kept`,
          "ResultExpired",
        );
      }
      if (!session.isKnown(id)) accept(message, "update");
      session.awaitedIds.add(id);
      try {
        await condition(() => session.resultFor(id) !== undefined);
      } finally {
        session.awaitedIds.delete(id);
      }
      const result = session.resultFor(id);
      if (result === undefined)
        throw ApplicationFailure.nonRetryable(`no result for ${id}`, "ResultMissing");
      return result;
    },
    { validator: validateMessage },
  );

  const end = (reason: string | undefined): void => {
    if (lifecycle.ending) return;
    lifecycle.ending = true;
    session.endReason = reason ?? "ended by request";
  };
  setHandler(endSessionSignal, (request) => {
    // Signals are not validated by the server: a malformed one must not fail the workflow task.
    const parsed = endSessionRequestSchema.optional().safeParse(request);
    if (!parsed.success) {
      // Rejected like a malformed message (the update's validator refuses the same payloads).
      session.emit({
        type: "message_rejected",
        reason: `endSession signal: ${formatIssues(parsed.error)}`,
      });
      return;
    }
    end(parsed.data?.reason);
  });
  setHandler(
    endSessionUpdate,
    async (request) => {
      end(request.reason);
      await condition(() => session.status === "ended");
      return session.view();
    },
    {
      validator: (request) => {
        const parsed = endSessionRequestSchema.safeParse(request ?? {});
        if (!parsed.success) throw new Error(formatIssues(parsed.error));
      },
    },
  );

  const upgrades = installTemplateUpgrades(session, () => lifecycle.ending);
  setHandler(stateQuery, () => session.view());
  setHandler(historyQuery, () => session.historyView());
  setHandler(allowedToolsQuery, () => session.orchestrator.allowedTools(session.state));
  setHandler(eventsQuery, ({ after }) => session.log.since(after));

  const eventThreshold =
    input.settings?.continueAsNewAfterEvents ?? DEFAULT_CONTINUE_AS_NEW_AFTER_EVENTS;
  const shouldContinueAsNew = (): boolean => {
    const info = workflowInfo();
    return info.continueAsNewSuggested || info.historyLength >= eventThreshold;
  };

  visibility.publish();
  for (;;) {
    if (upgrades.applyWaiting()) visibility.publish();
    const continuing = shouldContinueAsNew();
    // Before continue-as-new, answer every message whose caller waits (updates); messages that
    // came by signal ride along to the next run.
    if (session.pending.length > 0 && (!continuing || session.hasAwaitedPending())) {
      visibility.publish();
      await session.runNextTurn();
      visibility.publish();
      continue;
    }
    if (continuing) {
      // Waiting stream polls would hold the run open: release them (subscribers follow the chain).
      session.stream.detachPollers();
      if (allHandlersFinished()) {
        session.emit({ type: "continued_as_new", run: session.run + 1 });
        return await continueAsNew<typeof agentSession>({
          ...session.input,
          carried: session.carry(),
        });
      }
      await condition(
        () => allHandlersFinished() || session.hasAwaitedPending() || upgrades.waiting(),
      );
      continue;
    }
    if (lifecycle.ending) break;
    const woke = await condition(
      () => session.pending.length > 0 || lifecycle.ending || upgrades.waiting(),
      idleTimeoutMs,
    );
    if (!woke) end(`idle for ${input.template.session.idleTimeout}`);
  }

  session.status = "ended";
  session.emit({ type: "session_ended", reason: session.endReason ?? "ended" });
  visibility.publish();
  session.stream.detachPollers();
  await condition(allHandlersFinished);
  return {
    sessionId: input.sessionId,
    reason: session.endReason ?? "ended",
    turns: session.state.turn,
    state: session.view(),
  };
}
