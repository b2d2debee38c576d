import type { TurnResult } from "../session/index.ts";
import type { LiveEvent } from "./live-events.ts";
import type { StreamHub } from "./stream-hub.ts";

/** What watching one turn yields: its live events in order, then its durable outcome once. */
export type TurnWatchEvent =
  | { type: "live"; event: LiveEvent }
  | {
      type: "finished";
      result: TurnResult;
      /**
       * Whether the live events shown were the whole turn (its start and end seen, no gap in
       * between). When false, a viewer completes its rendering from `result`.
       */
      complete: boolean;
    };

export interface WatchTurnOptions {
  hub: StreamHub;
  sessionId: string;
  messageId: string;
  /** The turn's durable outcome (the `sendMessage` update's result): the final word. */
  result: Promise<TurnResult>;
  /** Stops watching (the viewer went away); nothing more is yielded. */
  signal?: AbortSignal;
  /** How long live events may trail the result before the result alone decides. */
  graceMs?: number;
}

const DEFAULT_GRACE_MS = 2_000;

/**
 * Watches one turn of a session: yields the turn's live events (text as the model writes it,
 * steps, tools) from the process's shared stream, then the turn's result. The live stream is
 * best effort (a viewer can fall behind the items the session keeps, a feed can fail); the
 * update's result is durable. So the watch ends on whichever proves the turn finished first:
 * its `turn_finished` event, the next turn's start, or the result plus a short grace for the
 * live events still in flight. It never waits on the stream alone.
 */
export async function* watchTurn(options: WatchTurnOptions): AsyncGenerator<TurnWatchEvent> {
  const { hub, sessionId, messageId, result } = options;
  const live = new AbortController();
  const stopLive = (): void => {
    live.abort();
  };
  options.signal?.addEventListener("abort", stopLive, { once: true });
  let grace: NodeJS.Timeout | undefined;
  result.then(() => {
    grace = setTimeout(stopLive, options.graceMs ?? DEFAULT_GRACE_MS);
    grace.unref();
  }, stopLive);
  const seen = { start: false, end: false, gap: false };
  try {
    for await (const event of hub.watch(sessionId, undefined, live.signal)) {
      const { item } = event;
      if (item.type === "gap") {
        seen.gap ||= seen.start;
        continue;
      }
      if (item.type === "session" && item.event.type === "turn_started") {
        if (item.event.messageId === messageId) seen.start = true;
        else if (seen.start) break; // our turn_finished fell in a gap: the next turn began
        continue;
      }
      if (!seen.start) continue;
      if (item.type === "session" && item.event.type === "turn_finished") {
        seen.end = item.event.messageId === messageId;
        if (seen.end) break;
        continue;
      }
      yield { type: "live", event };
    }
  } catch {
    // The live feed failed (the session's stream is unreachable): the result still answers.
  } finally {
    clearTimeout(grace);
    options.signal?.removeEventListener("abort", stopLive);
  }
  if (options.signal?.aborted === true) return;
  yield {
    type: "finished",
    result: await result,
    complete: seen.start && seen.end && !seen.gap,
  };
}
