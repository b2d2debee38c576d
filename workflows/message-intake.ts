import { ApplicationFailure, condition, setHandler } from "@temporalio/workflow";
import { REMEMBERED_MESSAGE_IDS, REMEMBERED_RESULTS } from "../src/session/constants.ts";
import { sendMessageUpdate, userMessageSignal } from "../src/session/messages.ts";
import { ownerMismatch } from "../src/session/message-owner.ts";
import {
  formatIssues,
  userMessageSchema,
  type TurnResult,
  type UserMessage,
} from "../src/session/session-types.ts";
import { busyRefusal, onArrival } from "./arrival-policy.ts";
import type { Session } from "./session.ts";
import type { SessionState } from "./session-state.ts";

/** Whether this id was accepted before (queued, running or answered). */
export function isKnown(state: SessionState, messageId: string): boolean {
  return (
    state.processedIds.has(messageId) ||
    state.pending.some((message) => message.messageId === messageId)
  );
}

/** Whether a queued message has a `sendMessage` caller waiting for its result. */
export function hasAwaitedPending(state: SessionState): boolean {
  return state.pending.some((message) => state.awaitedIds.has(message.messageId));
}

/** Marks a message answered and keeps its result for its caller and any repeat (both bounded). */
export function recordAnswer(state: SessionState, result: TurnResult): void {
  state.processedIds.add(result.messageId);
  if (state.processedIds.size > REMEMBERED_MESSAGE_IDS) {
    const oldest = state.processedIds.values().next().value;
    if (oldest !== undefined) state.processedIds.delete(oldest);
  }
  state.results.set(result.messageId, result);
  if (state.results.size > REMEMBERED_RESULTS) {
    const oldest = state.results.keys().next().value;
    if (oldest !== undefined) state.results.delete(oldest);
  }
}

/**
 * Message intake: the `userMessage` signal and the `sendMessage` update. A message is checked
 * (shape, owner, session still open), accepted once per id (a repeat is answered with the first
 * one's result and never runs again) and queued; the update waits for the turn's result.
 */
export function installMessageIntake(session: Session): void {
  const { input, state } = session;
  const owner = {
    sessionId: input.sessionId,
    // A forced upgrade can change the agent: messages are checked against the current one.
    get agentId() {
      return session.template.id;
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
    if (state.ending) {
      session.emit({
        type: "message_rejected",
        reason: `${source} after the session ended: ${parsed.data.messageId}`,
      });
      return undefined;
    }
    if (isKnown(state, parsed.data.messageId)) return parsed.data;
    const busy = busyRefusal(session);
    if (busy !== undefined) {
      session.emit({ type: "message_rejected", reason: `${source}: ${busy}` });
      return undefined;
    }
    state.pending.push(parsed.data);
    onArrival(session, parsed.data);
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
    if (isKnown(state, parsed.data.messageId)) return;
    if (state.ending) {
      throw new Error(`the session has ended (${state.endReason ?? "ended"}); start a new one`);
    }
    const busy = busyRefusal(session);
    if (busy !== undefined) throw ApplicationFailure.nonRetryable(busy, "SessionBusy");
  };
  setHandler(
    sendMessageUpdate,
    async (message) => {
      const id = message.messageId;
      if (state.processedIds.has(id) && !state.results.has(id)) {
        throw ApplicationFailure.nonRetryable(
          `message ${id} was answered long ago; its result is no longer kept`,
          "ResultExpired",
        );
      }
      if (!isKnown(state, id)) accept(message, "update");
      state.awaitedIds.add(id);
      try {
        await condition(() => state.results.has(id));
      } finally {
        state.awaitedIds.delete(id);
      }
      const result = state.results.get(id);
      if (result === undefined)
        throw ApplicationFailure.nonRetryable(`no result for ${id}`, "ResultMissing");
      return result;
    },
    { validator: validateMessage },
  );
}
