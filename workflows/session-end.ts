import { condition, setHandler } from "@temporalio/workflow";
import { endSessionSignal, endSessionUpdate } from "../src/session/messages.ts";
import { endSessionRequestSchema, formatIssues } from "../src/session/session-types.ts";
import type { Session } from "./session.ts";

/** Asks the session to end once its accepted messages are answered; the first reason stays. */
export function requestEnd(session: Session, reason: string | undefined): void {
  const { state } = session;
  if (state.ending) return;
  state.ending = true;
  state.endReason = reason ?? "ended by request";
}

/** The `endSession` signal and the `endSessionAndWait` update. */
export function installSessionEnd(session: Session): void {
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
    requestEnd(session, parsed.data?.reason);
  });
  setHandler(
    endSessionUpdate,
    async (request) => {
      requestEnd(session, request.reason);
      await condition(() => session.state.status === "ended");
      return session.view();
    },
    {
      validator: (request) => {
        const parsed = endSessionRequestSchema.safeParse(request ?? {});
        if (!parsed.success) throw new Error(formatIssues(parsed.error));
      },
    },
  );
}
