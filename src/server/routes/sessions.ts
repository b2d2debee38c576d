import type { Context } from "hono";
import { z } from "zod";
import {
  executionStatuses,
  listSessions,
  orchestrationByTurn,
  toUIMessages,
  type ExecutionStatusOption,
} from "../../client/index.ts";
import { agentIdSchema, sessionIdSchema } from "../../session/index.ts";
import type { ApiContext, ApiEnv } from "../api-context.ts";
import { ApiError, toApiError } from "../api-error.ts";
import { tenantSession, unknownSession } from "../tenant-sessions.ts";
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

/**
 * The `:id` of a session route, validated and checked against the caller's tenant (a malformed
 * id cannot name a session, another tenant's is not there for this caller: 404 both).
 */
export async function sessionIdParam(api: ApiContext, c: Context<ApiEnv>): Promise<string> {
  const raw = c.req.param("id") ?? "";
  const parsed = sessionIdSchema.safeParse(raw);
  if (!parsed.success) throw unknownSession(raw);
  await tenantSession(api.sessions, parsed.data, c.var.tenant);
  return parsed.data;
}

/** `GET /api/sessions?status=running&agent=<id>&limit=50`: the tenant's, from Temporal visibility. */
export async function listSessionsRoute(api: ApiContext, c: Context<ApiEnv>): Promise<Response> {
  const parsed = listParamsSchema.safeParse(c.req.query());
  if (!parsed.success) throw invalidBody(parsed.error);
  const { status, agent, limit } = parsed.data;
  try {
    const sessions = await listSessions(api.client, {
      limit,
      tenant: c.var.tenant,
      ...(status === undefined ? {} : { status }),
      ...(agent === undefined ? {} : { agent }),
    });
    return c.json({ sessions });
  } catch (error) {
    throw toApiError(error);
  }
}

/** `GET /api/sessions/:id`: the session's state query. */
export async function getSessionRoute(api: ApiContext, c: Context<ApiEnv>): Promise<Response> {
  const sessionId = await sessionIdParam(api, c);
  try {
    return c.json(await api.sessions.state(sessionId));
  } catch (error) {
    throw toApiError(error, sessionId);
  }
}

const historyParamsSchema = z.object({ format: z.enum(["model", "ui"]).default("model") });

/**
 * `GET /api/sessions/:id/history[?format=ui]`: the conversation as the model sees it, or
 * (`format=ui`) as the `UIMessage[]` that `useChat` takes as `messages`, so a page restores a
 * chat after a reload, tool parts and orchestration changes included.
 */
export async function getHistoryRoute(api: ApiContext, c: Context<ApiEnv>): Promise<Response> {
  const params = historyParamsSchema.safeParse(c.req.query());
  if (!params.success) throw invalidBody(params.error);
  const sessionId = await sessionIdParam(api, c);
  try {
    if (params.data.format === "model") {
      return c.json({ sessionId, messages: await api.sessions.history(sessionId) });
    }
    const [messages, log] = await Promise.all([
      api.sessions.history(sessionId),
      api.sessions.events(sessionId, 0),
    ]);
    return c.json({
      sessionId,
      messages: toUIMessages(messages, { orchestration: orchestrationByTurn(log.events) }),
    });
  } catch (error) {
    throw toApiError(error, sessionId);
  }
}

/** `DELETE /api/sessions/:id[?reason=…]`: ends the session once queued messages are answered. */
export async function deleteSessionRoute(api: ApiContext, c: Context<ApiEnv>): Promise<Response> {
  const reason = c.req.query("reason");
  if (reason !== undefined && reason.length > 500) {
    throw new ApiError(400, "invalid_query", "reason: at most 500 characters");
  }
  const sessionId = await sessionIdParam(api, c);
  try {
    // 200 with the final state once the workflow has closed; 202 while it still answers the
    // messages queued before the request ("ending": `pendingMessages` says how many).
    const outcome = await api.sessions.end(sessionId, reason);
    return c.json(outcome.view, outcome.ended ? 200 : 202);
  } catch (error) {
    throw toApiError(error, sessionId);
  }
}
