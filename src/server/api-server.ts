import type { Server } from "node:http";
import { toolCatalogueEntries, type ToolCatalogueEntry } from "../tools/index.ts";
import type { AddressInfo } from "node:net";
import { createAdaptorServer } from "@hono/node-server";
import type { Client } from "@temporalio/client";
import { SessionClient, StreamHub } from "../client/index.ts";
import type { ApiContext } from "./api-context.ts";
import { AgentSource } from "./agent-source.ts";
import { createApiApp } from "./api-app.ts";
import type { TenantToken } from "./tenant-tokens.ts";

const API_ROOM_WAIT = { stallMs: 2_000, maxWaitMs: 5 * 60_000 };

export interface ApiServerOptions {
  client: Client;
  taskQueue: string;
  /** Template folders, first match wins (shipped agents first). */
  agentsDirs: readonly string[];
  /** The tools templates are checked against (built-in plus plug-ins); the built-in ones if omitted. */
  tools?: readonly ToolCatalogueEntry[];
  /** A token of the default tenant: every /api route then needs `Authorization: Bearer <token>`. */
  token?: string;
  /** Tokens of named tenants (with `token`, all of them are accepted); none: the API is open. */
  tokens?: readonly TenantToken[];
  /** Origins browsers may call the API from (`*` for any); none by default. */
  corsOrigins?: readonly string[];
  /** One line per request (method, path, status, duration). */
  log?: (line: string) => void;
  /** The Temporal Web UI's base URL, for the console's links to a session. */
  temporalUiUrl?: string;
  /** The built console's folder (default dist/web). */
  consoleDir?: string;
}

export interface ApiServer {
  server: Server;
  listen(port: number, host: string): Promise<{ url: string }>;
  /**
   * Stops accepting connections, ends live streams, lets requests in flight finish for
   * `graceMs` (default 0) and then cuts what is left; resolves once every connection is closed.
   */
  close(graceMs?: number): Promise<void>;
}

/**
 * The HTTP API on Node's HTTP server: chat in the AI SDK UI message-stream protocol, sessions,
 * their history and live events (SSE), and agents. The routes are a Hono app (api-app.ts).
 */
export function createApiServer(options: ApiServerOptions): ApiServer {
  const hub = new StreamHub(options.client);
  const api: ApiContext = {
    client: options.client,
    // An HTTP caller waits for room in a busy session while it makes progress, and hears 429
    // with Retry-After within seconds when it makes none (no worker, a stuck turn).
    sessions: new SessionClient(options.client, options.taskQueue, { roomWait: API_ROOM_WAIT }),
    hub,
    agents: new AgentSource(options.agentsDirs, options.tools),
    tools: options.tools ?? toolCatalogueEntries,
  };
  const app = createApiApp(api, {
    tokens: [
      ...(options.tokens ?? []),
      ...(options.token === undefined ? [] : [{ tenant: "default", token: options.token }]),
    ],
    corsOrigins: options.corsOrigins ?? [],
    namespace: options.client.options.namespace,
    ...(options.log === undefined ? {} : { log: options.log }),
    ...(options.temporalUiUrl === undefined ? {} : { temporalUiUrl: options.temporalUiUrl }),
    ...(options.consoleDir === undefined ? {} : { consoleDir: options.consoleDir }),
  });
  // The adaptor's server is a plain node:http Server (no https or http2 options given).
  const server = createAdaptorServer({ fetch: app.fetch }) as Server;

  return {
    server,
    listen: (port, host) =>
      new Promise((resolve, reject) => {
        server.once("error", reject);
        server.listen(port, host, () => {
          server.off("error", reject);
          const address = server.address() as AddressInfo;
          const shownHost = address.family === "IPv6" ? `[${address.address}]` : address.address;
          resolve({ url: `http://${shownHost}:${address.port}` });
        });
      }),
    close: async (graceMs = 0) => {
      const closed = new Promise<void>((resolve) => {
        server.close(() => {
          resolve();
        });
      });
      server.closeIdleConnections();
      // Live viewers see the end of their stream; answers in flight get `graceMs` to finish.
      hub.close();
      const cut = setTimeout(() => {
        server.closeAllConnections();
      }, graceMs);
      await closed;
      clearTimeout(cut);
    },
  };
}
