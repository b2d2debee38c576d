import type { Context } from "hono";
import type { ApiContext, ApiEnv } from "../api-context.ts";

/** `GET /api/agents`: every template, validated; an invalid one carries its exact error. */
export function listAgentsRoute(api: ApiContext, c: Context<ApiEnv>): Response {
  return c.json({ agents: api.agents.list() });
}
