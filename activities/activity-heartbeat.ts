import { asyncLocalStorage } from "@temporalio/activity";

export const heartbeatIntervalMs = 2_000;

/**
 * Runs `work`, heartbeating with `details` until it settles, and hands it the
 * activity's cancellation signal so a cancelled activity stops its I/O.
 * Outside an activity (unit tests, scripts) it just runs `work`.
 */
export async function withHeartbeat<T>(
  details: unknown,
  work: (signal: AbortSignal | undefined) => Promise<T>,
): Promise<T> {
  // `Context.current()` throws outside an activity; the store it reads answers undefined instead.
  const context = asyncLocalStorage.getStore();
  if (context === undefined) {
    return work(undefined);
  }
  context.heartbeat(details);
  const timer = setInterval(() => {
    context.heartbeat(details);
  }, heartbeatIntervalMs);
  try {
    return await work(context.cancellationSignal);
  } finally {
    clearInterval(timer);
  }
}
