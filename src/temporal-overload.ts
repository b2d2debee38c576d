/** gRPC's RESOURCE_EXHAUSTED: Temporal refuses a request it has no room for right now. */
const RESOURCE_EXHAUSTED = 8;

/** Limits of one workflow (updates in flight, a busy workflow): that session is busy, not Temporal. */
const sessionLimit = /in-flight updates|busy workflow|concurrent.*(updates|signals)/i;

/**
 * A request Temporal refused for lack of room: `session` when one session is at its limit (too
 * many messages in flight; it frees up as turns finish), `server` when Temporal as a whole is
 * (rate limits, overload). Both are worth retrying after `retryAfterSeconds`.
 */
export interface TemporalOverload {
  scope: "session" | "server";
  retryAfterSeconds: number;
  message: string;
}

/** The overload `error` reports (it or any cause), or undefined for every other error. */
export function temporalOverload(error: unknown): TemporalOverload | undefined {
  for (let current = error, depth = 0; current instanceof Error && depth < 5; depth++) {
    const code = (current as { code?: unknown }).code;
    if (code === RESOURCE_EXHAUSTED) {
      const message = current.message.replace(/^8 RESOURCE_EXHAUSTED: /, "");
      return sessionLimit.test(message)
        ? { scope: "session", retryAfterSeconds: 2, message }
        : { scope: "server", retryAfterSeconds: 5, message };
    }
    current = current.cause;
  }
  return undefined;
}
