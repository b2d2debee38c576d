import { createServer, type IncomingMessage, type Server, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import type { Client } from "@temporalio/client";
import { SessionClient, StreamHub } from "../client/index.ts";
import type { ApiContext } from "./api-context.ts";
import { toApiError } from "./api-error.ts";
import { AgentSource } from "./agent-source.ts";
import { checkBearer } from "./auth.ts";
import { applyCors } from "./cors.ts";
import { sendError, sendJson } from "./http-io.ts";
import { Router, type RouteContext } from "./router.ts";
import { listAgentsRoute } from "./routes/agents.ts";
import { postChat } from "./routes/chat.ts";
import { sessionEventsRoute } from "./routes/events.ts";
import {
  deleteSessionRoute,
  getHistoryRoute,
  getSessionRoute,
  listSessionsRoute,
} from "./routes/sessions.ts";

export interface ApiServerOptions {
  client: Client;
  taskQueue: string;
  /** Template folders, first match wins (shipped agents first). */
  agentsDirs: readonly string[];
  /** When set, every /api route needs `Authorization: Bearer <token>`. */
  token?: string;
  /** Origins browsers may call the API from (`*` for any); none by default. */
  corsOrigins?: readonly string[];
  /** One line per request (method, path, status, duration). */
  log?: (line: string) => void;
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

function routes(api: ApiContext): Router {
  const bind =
    (handler: (api: ApiContext, context: RouteContext) => Promise<void>) =>
    (context: RouteContext) =>
      handler(api, context);
  return new Router()
    .add("GET", "/api/agents", bind(listAgentsRoute))
    .add("POST", "/api/chat/:agentId", bind(postChat))
    .add("GET", "/api/sessions", bind(listSessionsRoute))
    .add("GET", "/api/sessions/:id", bind(getSessionRoute))
    .add("DELETE", "/api/sessions/:id", bind(deleteSessionRoute))
    .add("GET", "/api/sessions/:id/history", bind(getHistoryRoute))
    .add("GET", "/api/sessions/:id/events", bind(sessionEventsRoute));
}

/** `GET /healthz` (no auth): 200 when Temporal answers, 503 otherwise. */
async function health(client: Client, response: ServerResponse): Promise<void> {
  try {
    await client.withDeadline(Date.now() + 3_000, () => client.workflowService.getSystemInfo({}));
    sendJson(response, 200, { ok: true, temporal: "reachable" });
  } catch (error) {
    sendJson(response, 503, {
      ok: false,
      temporal: "unreachable",
      message: error instanceof Error ? error.message : String(error),
    });
  }
}

/**
 * The HTTP API: chat in the AI SDK UI message-stream protocol, sessions, their history and
 * live events (SSE), and agents. Plain node:http, JSON errors `{error: {code, message}}`.
 */
export function createApiServer(options: ApiServerOptions): ApiServer {
  const hub = new StreamHub(options.client);
  const api: ApiContext = {
    client: options.client,
    sessions: new SessionClient(options.client, options.taskQueue),
    hub,
    agents: new AgentSource(options.agentsDirs),
  };
  const router = routes(api);

  async function handle(request: IncomingMessage, response: ServerResponse): Promise<void> {
    const url = new URL(request.url ?? "/", "http://localhost");
    const method = request.method ?? "GET";
    if (applyCors(request, response, options.corsOrigins ?? [])) return;
    if (url.pathname === "/healthz" && method === "GET") {
      await health(options.client, response);
      return;
    }
    if (url.pathname.startsWith("/api/")) checkBearer(request, options.token);
    const { handler, params } = router.match(method, url.pathname);
    await handler({ request, response, params, url });
  }

  const server = createServer((request, response) => {
    const started = performance.now();
    handle(request, response)
      .catch((error: unknown) => {
        const apiError = toApiError(error);
        if (apiError.status >= 500) options.log?.(`error: ${apiError.message}`);
        sendError(response, apiError);
      })
      .finally(() => {
        const ms = Math.round(performance.now() - started);
        options.log?.(
          `${request.method ?? "?"} ${request.url ?? "/"} ${response.statusCode} ${ms}ms`,
        );
      });
  });

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
