import type { Client } from "@temporalio/client";
import type { SessionClient, StreamHub } from "../client/index.ts";
import type { ToolCatalogueEntry } from "../tools/index.ts";
import type { AgentSource } from "./agent-source.ts";

/** What every route needs; built once per server. */
export interface ApiContext {
  client: Client;
  sessions: SessionClient;
  hub: StreamHub;
  agents: AgentSource;
  /** The tools this server knows (built-in plus plug-ins): the timeline asks the policy with them. */
  tools: readonly ToolCatalogueEntry[];
}

/** Hono's per-request variables: the caller's tenant, set by the auth middleware. */
export interface ApiEnv {
  Variables: { tenant: string };
}
