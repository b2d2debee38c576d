import type { Context } from "hono";
import type { ApiEnv } from "../api-context.ts";

/** What the console needs to know about where it runs. */
export interface ConsoleConfig {
  /** The Temporal Web UI's base URL, when one is known; the console links sessions to it. */
  temporalUiUrl: string | null;
  namespace: string;
  /** The caller's tenant (the token's). */
  tenant: string;
}

/** `GET /api/config`: the Temporal UI's address and namespace, for links to a session. */
export function configRoute(
  settings: { temporalUiUrl: string | undefined; namespace: string },
  c: Context<ApiEnv>,
): Response {
  const body: ConsoleConfig = {
    temporalUiUrl: settings.temporalUiUrl ?? null,
    namespace: settings.namespace,
    tenant: c.var.tenant,
  };
  return c.json(body);
}
