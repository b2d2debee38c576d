import type { Context } from "hono";
import { streamSSE } from "hono/streaming";
import type { ApiContext, ApiEnv } from "../api-context.ts";
import { ApiError, toApiError } from "../api-error.ts";
import { keepAlive } from "../sse.ts";
import { sessionIdParam } from "./sessions.ts";

/** `Last-Event-ID` (what EventSource sends on reconnect), else `?lastEventId=`. */
function resumeOffset(c: Context<ApiEnv>): number | undefined {
  const raw = c.req.header("last-event-id") ?? c.req.query("lastEventId");
  if (raw === undefined || raw === "") return undefined;
  if (!/^\d+$/.test(raw.trim())) {
    throw new ApiError(
      400,
      "invalid_last_event_id",
      `Last-Event-ID must be an event id (a number), got "${raw}"`,
    );
  }
  return Number(raw.trim());
}

/**
 * `GET /api/sessions/:id/events`: the session's live events as Server-Sent Events. Each
 * event's `id:` is its stream offset; reconnecting with `Last-Event-ID` resumes right after it,
 * with nothing repeated and nothing missing. Without one, it starts with the recent turns the
 * session keeps. Ends with `{"type":"end"}` when the session ends.
 */
export async function sessionEventsRoute(api: ApiContext, c: Context<ApiEnv>): Promise<Response> {
  const after = resumeOffset(c);
  const sessionId = await sessionIdParam(api, c);
  c.header("cache-control", "no-cache, no-transform");
  c.header("x-accel-buffering", "no");
  return streamSSE(c, async (stream) => {
    const gone = new AbortController();
    stream.onAbort(() => {
      gone.abort();
    });
    const stopKeepAlive = keepAlive(stream);
    const send = (data: unknown, id?: number) =>
      stream.writeSSE({
        data: JSON.stringify(data),
        ...(id === undefined ? {} : { id: String(id) }),
      });
    try {
      for await (const live of api.hub.watch(sessionId, after, gone.signal)) {
        await send(live.item, live.offset);
      }
      if (!gone.signal.aborted) await send({ type: "end" });
    } catch (error) {
      await send({ type: "error", message: toApiError(error, sessionId).message });
    } finally {
      stopKeepAlive();
    }
  });
}
