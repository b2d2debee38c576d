import type { Context } from "hono";
import { z } from "zod";
import { upgradeSession } from "../../client/index.ts";
import { agentIdSchema } from "../../session/index.ts";
import type { ApiContext, ApiEnv } from "../api-context.ts";
import { ApiError, toApiError } from "../api-error.ts";
import { readJsonBody } from "../json-body.ts";
import { invalidBody } from "../validation.ts";
import { sessionIdParam } from "./sessions.ts";

const upgradeBodySchema = z.strictObject({
  /** The agent whose template (as the server's folders hold it now) the session moves to. */
  agentId: agentIdSchema.optional(),
  force: z.boolean().optional(),
});

/**
 * `POST /api/sessions/:id/upgrade {agentId?, force?}`: moves the session to the current version of
 * its agent's template (or, with `force`, another agent's) at its next turn boundary, and answers
 * once it has: `{from, to, changed, notes, state}`. 404 for an unknown agent, 422 for a template
 * that does not load, 409 for another agent's template without `force`.
 */
export async function upgradeSessionRoute(api: ApiContext, c: Context<ApiEnv>): Promise<Response> {
  const body: unknown = c.req.header("content-length") === "0" ? {} : await readJsonBody(c);
  const parsed = upgradeBodySchema.safeParse(body);
  if (!parsed.success) throw invalidBody(parsed.error);
  const sessionId = await sessionIdParam(api, c);
  try {
    const view = await api.sessions.state(sessionId);
    const agentId = parsed.data.agentId ?? view.agentId;
    if (agentId !== view.agentId && parsed.data.force !== true) {
      throw new ApiError(
        409,
        "agent_mismatch",
        `session "${sessionId}" runs agent "${view.agentId}", not "${agentId}"; send "force": true to switch agents`,
      );
    }
    const { template } = api.agents.agent(agentId);
    const outcome = await upgradeSession(api.sessions, sessionId, template, {
      force: parsed.data.force === true,
    });
    return c.json(outcome);
  } catch (error) {
    throw toApiError(error, sessionId);
  }
}
