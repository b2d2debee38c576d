import { decideApprovalRoute, listApprovalsRoute } from "./routes/approvals.ts";
import type { Client } from "@temporalio/client";
import { Hono, type Context } from "hono";
import { cors } from "hono/cors";
import { HTTPException } from "hono/http-exception";
import { methodNotAllowed } from "hono/method-not-allowed";
import type { ApiContext, ApiEnv } from "./api-context.ts";
import { ApiError, toApiError } from "./api-error.ts";
import { mountConsole } from "./console-static.ts";
import { jsonBodyLimit } from "./json-body.ts";
import { listAgentsRoute } from "./routes/agents.ts";
import { cancelTurnRoute } from "./routes/cancel.ts";
import { postChat } from "./routes/chat.ts";
import { resumeChatStream } from "./routes/chat-stream.ts";
import { configRoute } from "./routes/config.ts";
import { sessionEventsRoute } from "./routes/events.ts";
import {
  deleteSessionRoute,
  getHistoryRoute,
  getSessionRoute,
  listSessionsRoute,
} from "./routes/sessions.ts";
import { getTimelineRoute } from "./routes/timeline.ts";
import { forkSessionRoute } from "./routes/fork.ts";
import { upgradeSessionRoute } from "./routes/upgrade.ts";
import { tenantAuth } from "./tenant-auth.ts";
import type { TenantToken } from "./tenant-tokens.ts";

export interface ApiAppOptions {
  tokens: readonly TenantToken[];
  corsOrigins: readonly string[];
  log?: (line: string) => void;
  /** The Temporal Web UI's base URL (the console links each session there). */
  temporalUiUrl?: string;
  namespace: string;
  /** The built console's folder (default dist/web). */
  consoleDir?: string;
}

/** `GET /healthz` (no auth): 200 when Temporal answers, 503 otherwise. */
async function health(client: Client, c: Context): Promise<Response> {
  try {
    await client.withDeadline(Date.now() + 3_000, () => client.workflowService.getSystemInfo({}));
    return c.json({ ok: true, temporal: "reachable" });
  } catch (error) {
    return c.json(
      {
        ok: false,
        temporal: "unreachable",
        message: error instanceof Error ? error.message : String(error),
      },
      503,
    );
  }
}

/** Anything a handler or middleware threw, as `{"error": {"code", "message"}}`. */
function errorResponse(error: unknown, c: Context, log?: (line: string) => void): Response {
  const apiError =
    error instanceof HTTPException && !(error instanceof ApiError)
      ? new ApiError(error.status, "http_error", error.message, { cause: error })
      : toApiError(error);
  if (apiError.status >= 500) log?.(`error: ${apiError.message}`);
  for (const [name, value] of Object.entries(apiError.headers)) c.header(name, value);
  c.status(apiError.status as Parameters<typeof c.status>[0]);
  return c.json({ error: { code: apiError.code, message: apiError.message } });
}

/**
 * The API's routes on Hono: CORS (configured origins only), bearer auth naming the caller's
 * tenant on /api, body limits on what reads a body, JSON errors everywhere.
 */
export function createApiApp(api: ApiContext, options: ApiAppOptions): Hono<ApiEnv> {
  const app = new Hono<ApiEnv>();
  if (options.log !== undefined) {
    const log = options.log;
    app.use(async (c, next) => {
      const started = performance.now();
      await next();
      const url = new URL(c.req.url);
      log(
        `${c.req.method} ${url.pathname}${url.search} ${c.res.status} ${Math.round(performance.now() - started)}ms`,
      );
    });
  }
  const origins = options.corsOrigins;
  if (origins.length > 0) {
    app.use(
      cors({
        origin: (origin) =>
          origins.includes("*") ? "*" : origins.includes(origin) ? origin : null,
        allowMethods: ["GET", "POST", "DELETE", "OPTIONS"],
        allowHeaders: ["authorization", "content-type", "last-event-id", "x-agentdock-approver"],
        maxAge: 600,
      }),
    );
  }
  app.use(
    methodNotAllowed({
      app,
      onMethodNotAllowed: (c, allowed) => {
        throw new ApiError(
          405,
          "method_not_allowed",
          `${c.req.method} is not allowed on ${c.req.path}`,
          { headers: { allow: allowed.join(", ") } },
        );
      },
    }),
  );
  app.get("/healthz", (c) => health(api.client, c));
  app.use("/api/*", tenantAuth(options.tokens));
  app.get("/api/config", (c) =>
    configRoute({ temporalUiUrl: options.temporalUiUrl, namespace: options.namespace }, c),
  );
  app.get("/api/agents", (c) => listAgentsRoute(api, c));
  app.post("/api/chat/:agentId", jsonBodyLimit, (c) => postChat(api, c));
  app.get("/api/chat/:agentId/:id/stream", (c) => resumeChatStream(api, c));
  app.get("/api/sessions", (c) => listSessionsRoute(api, c));
  app.get("/api/sessions/:id", (c) => getSessionRoute(api, c));
  app.delete("/api/sessions/:id", (c) => deleteSessionRoute(api, c));
  app.post("/api/sessions/:id/cancel", jsonBodyLimit, (c) => cancelTurnRoute(api, c));
  app.get("/api/sessions/:id/approvals", (c) => listApprovalsRoute(api, c));
  app.post("/api/sessions/:id/approvals/:approvalId", jsonBodyLimit, (c) =>
    decideApprovalRoute(api, c),
  );
  app.get("/api/sessions/:id/history", (c) => getHistoryRoute(api, c));
  app.get("/api/sessions/:id/events", (c) => sessionEventsRoute(api, c));
  app.get("/api/sessions/:id/timeline", (c) => getTimelineRoute(api, c));
  app.post("/api/sessions/:id/fork", jsonBodyLimit, (c) => forkSessionRoute(api, c));
  app.post("/api/sessions/:id/upgrade", jsonBodyLimit, (c) => upgradeSessionRoute(api, c));
  mountConsole(app, options.consoleDir);
  app.notFound((c) =>
    errorResponse(
      new ApiError(404, "not_found", `no route ${c.req.method} ${c.req.path}`),
      c,
      options.log,
    ),
  );
  app.onError((error, c) => errorResponse(error, c, options.log));
  return app;
}
