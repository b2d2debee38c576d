import type { ApiContext } from "../api-context.ts";
import { sendJson } from "../http-io.ts";
import type { RouteContext } from "../router.ts";

/** `GET /api/agents`: every template, validated; an invalid one carries its exact error. */
export function listAgentsRoute(api: ApiContext, { response }: RouteContext): Promise<void> {
  sendJson(response, 200, { agents: api.agents.list() });
  return Promise.resolve();
}
