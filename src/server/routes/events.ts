import type { ApiContext } from "../api-context.ts";
import { ApiError, toApiError } from "../api-error.ts";
import type { RouteContext } from "../router.ts";
import { SseWriter } from "../sse.ts";
import { sessionIdParam } from "./sessions.ts";

/** `Last-Event-ID` (what EventSource sends on reconnect), else `?lastEventId=`. */
function resumeOffset({ request, url }: RouteContext): number | undefined {
  const raw = request.headers["last-event-id"] ?? url.searchParams.get("lastEventId") ?? undefined;
  if (raw === undefined || raw === "") return undefined;
  const value = typeof raw === "string" ? raw : raw.join("");
  if (!/^\d+$/.test(value.trim())) {
    throw new ApiError(
      400,
      "invalid_last_event_id",
      `Last-Event-ID must be an event id (a number), got "${value}"`,
    );
  }
  return Number(value.trim());
}

/**
 * `GET /api/sessions/:id/events`: the session's live events as Server-Sent Events. Each
 * event's `id:` is its stream offset; reconnecting with `Last-Event-ID` resumes right after it,
 * with nothing repeated and nothing missing. Without one, it starts with the recent turns the
 * session keeps. Ends with `{"type":"end"}` when the session ends.
 */
export async function sessionEventsRoute(api: ApiContext, context: RouteContext): Promise<void> {
  const sessionId = sessionIdParam(context.params);
  const after = resumeOffset(context);
  try {
    await api.sessions.handle(sessionId).describe();
  } catch (error) {
    throw toApiError(error, sessionId);
  }
  const gone = new AbortController();
  context.response.on("close", () => {
    gone.abort();
  });
  const sse = new SseWriter(context.response);
  try {
    for await (const live of api.hub.watch(sessionId, after, gone.signal)) {
      sse.send(live.item, live.offset);
    }
    if (!gone.signal.aborted) sse.send({ type: "end" });
  } catch (error) {
    sse.send({ type: "error", message: toApiError(error, sessionId).message });
  } finally {
    sse.end();
  }
}
