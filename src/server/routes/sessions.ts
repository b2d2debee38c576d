import { z } from "zod";
import { executionStatuses, listSessions, type ExecutionStatusOption } from "../../client/index.ts";
import { agentIdSchema, sessionIdSchema } from "../../session/index.ts";
import type { ApiContext } from "../api-context.ts";
import { ApiError, toApiError } from "../api-error.ts";
import { sendJson } from "../http-io.ts";
import type { RouteContext } from "../router.ts";
import { invalidBody } from "../validation.ts";

const statusNames = Object.keys(executionStatuses) as [
  ExecutionStatusOption,
  ...ExecutionStatusOption[],
];
const listParamsSchema = z.object({
  status: z.enum(statusNames).optional(),
  agent: agentIdSchema.optional(),
  limit: z.coerce.number().int().min(1).max(1000).default(50),
});

/** The `:id` of a session route, validated (a malformed id cannot name a session: 404). */
export function sessionIdParam(params: Record<string, string>): string {
  const parsed = sessionIdSchema.safeParse(params["id"]);
  if (!parsed.success)
    throw new ApiError(404, "unknown_session", `no session "${params["id"] ?? ""}"`);
  return parsed.data;
}

/** `GET /api/sessions?status=running&agent=<id>&limit=50`: from Temporal visibility. */
export async function listSessionsRoute(
  api: ApiContext,
  { response, url }: RouteContext,
): Promise<void> {
  const parsed = listParamsSchema.safeParse(Object.fromEntries(url.searchParams));
  if (!parsed.success) throw invalidBody(parsed.error);
  const { status, agent, limit } = parsed.data;
  try {
    const sessions = await listSessions(api.client, {
      limit,
      ...(status === undefined ? {} : { status }),
      ...(agent === undefined ? {} : { agent }),
    });
    sendJson(response, 200, { sessions });
  } catch (error) {
    throw toApiError(error);
  }
}

/** `GET /api/sessions/:id`: the session's state query. */
export async function getSessionRoute(
  api: ApiContext,
  { response, params }: RouteContext,
): Promise<void> {
  const sessionId = sessionIdParam(params);
  try {
    sendJson(response, 200, await api.sessions.state(sessionId));
  } catch (error) {
    throw toApiError(error, sessionId);
  }
}

/** `GET /api/sessions/:id/history`: the conversation as the model sees it. */
export async function getHistoryRoute(
  api: ApiContext,
  { response, params }: RouteContext,
): Promise<void> {
  const sessionId = sessionIdParam(params);
  try {
    sendJson(response, 200, { sessionId, messages: await api.sessions.history(sessionId) });
  } catch (error) {
    throw toApiError(error, sessionId);
  }
}

/** `DELETE /api/sessions/:id[?reason=…]`: ends the session once queued messages are answered. */
export async function deleteSessionRoute(
  api: ApiContext,
  { response, params, url }: RouteContext,
): Promise<void> {
  const sessionId = sessionIdParam(params);
  const reason = url.searchParams.get("reason") ?? undefined;
  if (reason !== undefined && reason.length > 500) {
    throw new ApiError(400, "invalid_query", "reason: at most 500 characters");
  }
  try {
    // 200 with the final state once the workflow has closed; 202 while it still answers the
    // messages queued before the request ("ending": `pendingMessages` says how many).
    const outcome = await api.sessions.end(sessionId, reason);
    sendJson(response, outcome.ended ? 200 : 202, outcome.view);
  } catch (error) {
    throw toApiError(error, sessionId);
  }
}
