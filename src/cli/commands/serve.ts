import { Client } from "@temporalio/client";
import { z } from "zod";
import { readFileSync } from "node:fs";
import { isIP } from "node:net";
import { createApiServer, tenantTokensFromEnv, type TenantToken } from "../../server/index.ts";
import { apiGrpcRetryInterceptor } from "../../server/api-grpc-retry.ts";
import { portSchema, temporalUiUrlSchema } from "../arg-schemas.ts";
import { agentsDirs } from "../agent-dirs.ts";
import { cliToolCatalogue } from "../cli-tool-registry.ts";
import type { Command } from "../cli-context.ts";
import { usageError } from "../cli-error.ts";
import { parseCommandArgs } from "../command-args.ts";
import { cliSettings } from "../cli-env.ts";
import { connectOrExplain, connectSettings } from "../connect.ts";
import { ExitCode, exitCodesHelp } from "../exit-codes.ts";
import { writeLine } from "../output.ts";
import { connectClient } from "../../temporal-connection.ts";
import {
  checkSearchAttributes,
  registerSearchAttributesSetting,
  searchAttributesHelp,
} from "../search-attributes-check.ts";

const DEFAULT_PORT = 8080;

/** On SIGTERM or Ctrl-C, how long requests in flight (chat streams among them) may finish. */
const SHUTDOWN_GRACE_MS = 5_000;

const help = `Usage: agentdock-temporal serve [--port N] [--host H] [--dir DIR…] [--temporal-ui URL]

Runs the HTTP API and the web console on the Temporal the environment points at (workers run
separately: agentdock-temporal worker, or dev for everything in one process). Routes:

  GET    /                            the web console (built by npm install: npm run build:console)
  POST   /api/chat/:agentId          a useChat request; streams the turn (AI SDK UI message stream)
  GET    /api/agents                  the agent templates, validated
  GET    /api/sessions                sessions from Temporal visibility (?status=&agent=&limit=)
  GET    /api/sessions/:id            a session's state
  GET    /api/sessions/:id/history    its messages
  GET    /api/sessions/:id/events     its live events as Server-Sent Events (Last-Event-ID resumes)
  GET    /api/sessions/:id/timeline   per turn: steps and why, model calls, tool calls with timings
  GET    /api/config                  the Temporal Web UI's address and namespace (for the console)
  DELETE /api/sessions/:id            ends it (?reason=)
  GET    /healthz                     200 when Temporal answers (no auth)

Options:
  --port N     port (default ${DEFAULT_PORT}, or AGENTDOCK_API_PORT; 0 picks a free one)
  --host H     address to listen on (default 127.0.0.1, or AGENTDOCK_API_HOST; 0.0.0.0 for all)
  --dir DIR    another folder of agent templates (repeatable; AGENTDOCK_AGENTS_DIR too)
  --temporal-ui URL
               the Temporal Web UI's address (or AGENTDOCK_TEMPORAL_UI_URL): the console links
               each session there
  -h, --help   this help

SIGTERM or Ctrl-C stops it gracefully: no new connections, live event streams end, requests in
flight get ${SHUTDOWN_GRACE_MS / 1000} s to finish (a turn cut short still completes in its session), then the
Temporal connection closes and the command exits 0.

Environment:
  AGENTDOCK_API_TOKEN     when set, /api routes need "Authorization: Bearer <token>" (the default tenant)
  AGENTDOCK_API_TOKENS    tokens of tenants, "tenant:token,tenant:token"; each token sees only its
                          tenant's sessions
  AGENTDOCK_API_TOKENS_FILE
                          the same as a JSON file: {"tenant": "token" | ["token", …]}
                          Without any token the API is open, and serve refuses a non-loopback
                          --host (exit 2)
  AGENTDOCK_API_EXPOSED_HOST
                          the address clients reach the port on, when not --host (a container's
                          published address); the no-token refusal checks this one
  AGENTDOCK_API_CORS_ORIGIN
                          origins browsers may call the API from, comma-separated ("*" for any)
  TEMPORAL_ADDRESS, TEMPORAL_NAMESPACE, TEMPORAL_API_KEY, TEMPORAL_TLS_*, TEMPORAL_PROFILE
                          Temporal's environment configuration (default 127.0.0.1:7233)
  AGENTDOCK_TASK_QUEUE    the workers' task queue (default "agentdock")
${searchAttributesHelp}

${exitCodesHelp}`;

const schema = z.object({
  port: portSchema.optional(),
  host: z.string().min(1).optional(),
  dir: z.array(z.string().min(1)).default([]),
  "temporal-ui": temporalUiUrlSchema.optional(),
});

export const serveCommand: Command = {
  name: "serve",
  summary: "run the HTTP API (chat streaming, sessions, live events) until Ctrl-C",
  help,
  async run(argv, context) {
    const args = parseCommandArgs(
      serveCommand,
      argv,
      {
        options: {
          port: { type: "string" },
          host: { type: "string" },
          dir: { type: "string", multiple: true },
          "temporal-ui": { type: "string" },
        },
        schema,
      },
      context,
    );
    if (args === undefined) return ExitCode.ok;
    const envPort = context.env["AGENTDOCK_API_PORT"];
    const port =
      args.port ?? (envPort === undefined ? DEFAULT_PORT : portSchema.safeParse(envPort).data);
    if (port === undefined) {
      throw usageError(`AGENTDOCK_API_PORT: "${envPort ?? ""}" is not a port (0-65535)`);
    }
    const host = args.host ?? context.env["AGENTDOCK_API_HOST"] ?? "127.0.0.1";
    let tokens: TenantToken[];
    try {
      tokens = tenantTokensFromEnv(context.env, (path) => readFileSync(path, "utf8"));
    } catch (error) {
      throw usageError(error instanceof Error ? error.message : String(error));
    }
    // In a container serve listens on 0.0.0.0 while the published port may be loopback only.
    const exposed = context.env["AGENTDOCK_API_EXPOSED_HOST"]?.trim() || host;
    if (tokens.length === 0 && !isLoopback(exposed)) {
      throw usageError(
        `refusing to serve on ${exposed} without a token: anyone who reaches it could read and end every session. Set AGENTDOCK_API_TOKEN (or AGENTDOCK_API_TOKENS), or listen on 127.0.0.1`,
      );
    }
    const envUi = context.env["AGENTDOCK_TEMPORAL_UI_URL"];
    const uiFromEnv =
      envUi === undefined || envUi === "" ? undefined : temporalUiUrlSchema.safeParse(envUi);
    if (uiFromEnv?.success === false) {
      throw usageError(
        `AGENTDOCK_TEMPORAL_UI_URL: "${envUi ?? ""}" ${uiFromEnv.error.issues[0]?.message ?? "is not a URL"}`,
      );
    }
    const temporalUiUrl = args["temporal-ui"] ?? uiFromEnv?.data;
    const dirs = agentsDirs(context, args.dir);
    const tools = await cliToolCatalogue(context);
    const corsOrigins = (context.env["AGENTDOCK_API_CORS_ORIGIN"] ?? "")
      .split(",")
      .map((origin) => origin.trim())
      .filter((origin) => origin !== "");
    const { taskQueue } = cliSettings(context);
    const register = registerSearchAttributesSetting(context.env);
    const settings = connectSettings(context);
    // Listening first: a signal that comes while connecting still stops the command cleanly.
    const stopSignal = nextStopSignal();
    const connection = await connectOrExplain(settings.address, () =>
      connectClient({
        ...settings.connectionOptions,
        interceptors: [apiGrpcRetryInterceptor()],
      }),
    );
    // Temporal calls of requests still running when the grace time is over are cancelled, so
    // nothing waits on a closed connection (a pending message's long poll would hold ~20 s).
    const inFlight = new AbortController();
    try {
      // Before listening: sessions started through the API set these attributes.
      await checkSearchAttributes({
        connection,
        address: settings.address,
        namespace: settings.namespace,
        register,
        log: (line) => {
          writeLine(context.stderr, `serve: ${line}`);
        },
      });
      await connection.withAbortSignal(inFlight.signal, async () => {
        const api = createApiServer({
          client: new Client({ connection, namespace: settings.namespace }),
          taskQueue,
          agentsDirs: dirs,
          tools,
          corsOrigins,
          tokens,
          ...(temporalUiUrl === undefined ? {} : { temporalUiUrl }),
          log: (line) => {
            writeLine(context.stderr, line);
          },
        });
        const { url } = await api.listen(port, host);
        writeLine(
          context.stderr,
          `serve: HTTP API on ${url} (Temporal ${settings.address}, namespace ${settings.namespace}, task queue "${taskQueue}", ${tokens.length === 0 ? "no auth" : `${new Set(tokens.map((entry) => entry.tenant)).size} tenant(s), bearer auth`})`,
        );
        const signal = await stopSignal.received;
        writeLine(
          context.stderr,
          `serve: ${signal}, stopping (requests in flight get ${SHUTDOWN_GRACE_MS / 1000} s)`,
        );
        await api.close(SHUTDOWN_GRACE_MS);
        inFlight.abort();
        writeLine(context.stderr, "serve: stopped");
      });
    } finally {
      stopSignal.dispose();
      // After the HTTP server: no handler is left to use it.
      await connection.close();
    }
    return ExitCode.ok;
  },
};

/** Addresses only this machine reaches: the one place an open API is acceptable. */
function isLoopback(host: string): boolean {
  if (host === "localhost") return true;
  if (isIP(host) === 4) return host.startsWith("127.");
  return host === "::1" || host === "[::1]";
}

/** The first SIGINT or SIGTERM from now on; `dispose` removes the listeners. */
function nextStopSignal(): { received: Promise<NodeJS.Signals>; dispose(): void } {
  let stop: (signal: NodeJS.Signals) => void = () => undefined;
  const received = new Promise<NodeJS.Signals>((resolve) => {
    stop = resolve;
  });
  const signals: NodeJS.Signals[] = ["SIGINT", "SIGTERM", "SIGHUP"];
  for (const signal of signals) process.on(signal, stop);
  return {
    received,
    dispose: () => {
      for (const signal of signals) process.removeListener(signal, stop);
    },
  };
}
