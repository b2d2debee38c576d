import { z } from "zod";
import { readFileSync } from "node:fs";
import { isIP } from "node:net";
import { createApiServer, tenantTokensFromEnv, type TenantToken } from "../../server/index.ts";
import { portSchema } from "../arg-schemas.ts";
import { agentsDirs } from "../agent-dirs.ts";
import type { Command } from "../cli-context.ts";
import { usageError } from "../cli-error.ts";
import { parseCommandArgs } from "../command-args.ts";
import { withSessions } from "../connect.ts";
import { ExitCode, exitCodesHelp } from "../exit-codes.ts";
import { writeLine } from "../output.ts";

const DEFAULT_PORT = 8080;

const help = `Usage: agentdock-temporal serve [--port N] [--host H] [--dir DIR…]

Runs the HTTP API on the Temporal the environment points at (workers run separately:
agentdock-temporal worker, or dev for everything in one process). Routes:

  POST   /api/chat/:agentId          a useChat request; streams the turn (AI SDK UI message stream)
  GET    /api/agents                  the agent templates, validated
  GET    /api/sessions                sessions from Temporal visibility (?status=&agent=&limit=)
  GET    /api/sessions/:id            a session's state
  GET    /api/sessions/:id/history    its messages
  GET    /api/sessions/:id/events     its live events as Server-Sent Events (Last-Event-ID resumes)
  DELETE /api/sessions/:id            ends it (?reason=)
  GET    /healthz                     200 when Temporal answers (no auth)

Options:
  --port N     port (default ${DEFAULT_PORT}, or AGENTDOCK_API_PORT; 0 picks a free one)
  --host H     address to listen on (default 127.0.0.1, or AGENTDOCK_API_HOST; 0.0.0.0 for all)
  --dir DIR    another folder of agent templates (repeatable; AGENTDOCK_AGENTS_DIR too)
  -h, --help   this help

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

${exitCodesHelp}`;

const schema = z.object({
  port: portSchema.optional(),
  host: z.string().min(1).optional(),
  dir: z.array(z.string().min(1)).default([]),
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
    const dirs = agentsDirs(context, args.dir);
    const corsOrigins = (context.env["AGENTDOCK_API_CORS_ORIGIN"] ?? "")
      .split(",")
      .map((origin) => origin.trim())
      .filter((origin) => origin !== "");
    await withSessions(context, async (connected) => {
      const api = createApiServer({
        client: connected.client,
        taskQueue: connected.taskQueue,
        agentsDirs: dirs,
        corsOrigins,
        tokens,
        log: (line) => {
          writeLine(context.stderr, line);
        },
      });
      const { url } = await api.listen(port, host);
      writeLine(
        context.stderr,
        `serve: HTTP API on ${url} (Temporal ${connected.settings.address}, namespace ${connected.settings.namespace}, task queue "${connected.taskQueue}", ${tokens.length === 0 ? "no auth" : `${new Set(tokens.map((entry) => entry.tenant)).size} tenant(s), bearer auth`})`,
      );
      await new Promise<void>((resolve) => {
        const stop = (): void => {
          process.removeListener("SIGINT", stop);
          process.removeListener("SIGTERM", stop);
          resolve();
        };
        process.on("SIGINT", stop);
        process.on("SIGTERM", stop);
      });
      writeLine(context.stderr, "serve: stopping");
      await api.close();
    });
    return ExitCode.ok;
  },
};

/** Addresses only this machine reaches: the one place an open API is acceptable. */
function isLoopback(host: string): boolean {
  if (host === "localhost") return true;
  if (isIP(host) === 4) return host.startsWith("127.");
  return host === "::1" || host === "[::1]";
}
