import type { Client } from "@temporalio/client";
import type { SessionClient, StreamHub } from "../client/index.ts";
import type { AgentSource } from "./agent-source.ts";

/** What every route needs; built once per server. */
export interface ApiContext {
  client: Client;
  sessions: SessionClient;
  hub: StreamHub;
  agents: AgentSource;
}
