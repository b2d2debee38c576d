import type { UIMessageChunk } from "ai";
import type { TurnResult } from "../session/index.ts";
import type { StreamHub } from "./stream-hub.ts";
import { TurnChunker } from "./ui-chunks.ts";

/** How long a finished turn's live events may lag its result before the result alone is sent. */
const RESULT_GRACE_MS = 3_000;

/**
 * One turn as AI SDK UI message-stream chunks: its live events while it runs, then its result.
 * `describeError` words a failed result for the client.
 */
export async function* turnChunks(
  hub: StreamHub,
  sessionId: string,
  messageId: string,
  result: Promise<TurnResult>,
  gone: AbortSignal,
  describeError: (error: unknown) => string,
): AsyncGenerator<UIMessageChunk> {
  const chunker = new TurnChunker();
  yield* chunker.start(`${sessionId}:${messageId}`);
  const live = new AbortController();
  gone.addEventListener("abort", () => {
    live.abort();
  });
  const state = { inTurn: false, seenTurn: false };
  // A turn answered long ago (a repeated request) has no live events left: once the result is
  // in, wait a little for them, then answer from the result alone.
  result.then(
    () => {
      setTimeout(() => {
        if (!state.seenTurn) live.abort();
      }, RESULT_GRACE_MS).unref();
    },
    () => {
      live.abort();
    },
  );
  for await (const { item } of hub.watch(sessionId, undefined, live.signal)) {
    if (item.type === "session" && item.event.type === "turn_started") {
      state.inTurn = item.event.messageId === messageId;
      state.seenTurn ||= state.inTurn;
      continue;
    }
    if (!state.inTurn) continue;
    if (item.type === "session" && item.event.type === "turn_finished") break;
    yield* chunker.fromLive(item);
  }
  if (gone.aborted) return;
  let turn: TurnResult;
  try {
    turn = await result;
  } catch (error) {
    yield { type: "error", errorText: describeError(error) };
    return;
  }
  if (!state.seenTurn) yield* chunker.fromResult(turn);
  yield* chunker.finish(turn);
}
