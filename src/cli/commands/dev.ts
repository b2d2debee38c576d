import { z } from "zod";
import { DEFAULT_TASK_QUEUE } from "../../session/index.ts";
import { DEFAULT_TEMPORAL_ADDRESS } from "../../temporal-connection.ts";
import { portSchema } from "../arg-schemas.ts";
import type { Command } from "../cli-context.ts";
import { CliError } from "../cli-error.ts";
import { agentsDirs } from "../agent-dirs.ts";
import { consolePortOption, DEFAULT_CONSOLE_PORT } from "../console-api.ts";
import { startDevStack } from "../dev-stack.ts";
import { cliSettings } from "../cli-env.ts";
import { parseCommandArgs } from "../command-args.ts";
import { ExitCode, exitCodesHelp } from "../exit-codes.ts";
import { writeLine } from "../output.ts";
import {
  createConfiguredWorker,
  loadWorkerTools,
  runUntilInterrupted,
} from "../session-worker-run.ts";

const help = `Usage: agentdock-temporal dev [--db FILE] [--port N] [--ui-port N] [--console-port N]

Runs a Temporal dev server (SQLite, Web UI, the session search attributes registered), a
worker, and the HTTP API with the web console on 127.0.0.1 in the foreground until Ctrl-C, then
stops them all; sessions stay in the database. Other commands (chat, send, sessions…) reach it
from another terminal. Like npm start without the terminal chat.

Options:
  --db FILE      the dev server's SQLite file (default .temporal/dev.db)
  --port N       Temporal gRPC port on 127.0.0.1 (default 7233; 0 = any free port)
  --ui-port N    Web UI port (default 8233; 0 = any free port)
  --console-port N, --api-port N
                 the HTTP API and web console (default ${DEFAULT_CONSOLE_PORT}; 0 = any free port);
                 AGENTDOCK_API_TOKEN (and AGENTDOCK_API_TOKENS…) make it ask for a token
  -h, --help     this help

The Temporal CLI comes from TEMPORAL_CLI, PATH or ~/.cache/agentdock-temporal (built once with
Go). The worker's task queue is AGENTDOCK_TASK_QUEUE (default "agentdock"); model and search
providers come from the environment as for agentdock-temporal worker.

${exitCodesHelp}`;

const schema = z.object({
  db: z.string().min(1).default(".temporal/dev.db"),
  port: portSchema.default(7233),
  "ui-port": portSchema.default(8233),
  "console-port": portSchema.optional(),
  "api-port": portSchema.optional(),
});

export const devCommand: Command = {
  name: "dev",
  summary: "embedded Temporal dev server + worker in the foreground",
  help,
  async run(argv, context) {
    const args = parseCommandArgs(
      devCommand,
      argv,
      {
        options: {
          db: { type: "string" },
          port: { type: "string" },
          "ui-port": { type: "string" },
          "console-port": { type: "string" },
          "api-port": { type: "string" },
        },
        schema,
      },
      context,
    );
    if (args === undefined) return ExitCode.ok;
    const { taskQueue } = cliSettings(context);
    const consolePort = consolePortOption(args);
    // Checked before the dev server starts: a broken plug-in stops `dev` at once.
    const toolRegistry = await loadWorkerTools(context);
    const {
      server,
      dbFile,
      worker,
      stop,
      console: api,
    } = await startDevStack({
      env: context.env,
      db: args.db,
      port: args.port,
      uiPort: args["ui-port"],
      progress: (line) => {
        writeLine(context.stderr, line);
      },
      createWorker: (connection, namespace) =>
        createConfiguredWorker(context, { connection, namespace, taskQueue, toolRegistry }),
      console: {
        ...consolePort,
        taskQueue,
        agentsDirs: agentsDirs(context),
        tools: toolRegistry.catalogueEntries(),
      },
    });
    try {
      // What another terminal needs to reach this server and worker (nothing for the defaults).
      const exports = [
        server.address === DEFAULT_TEMPORAL_ADDRESS ? "" : `TEMPORAL_ADDRESS=${server.address}`,
        taskQueue === DEFAULT_TASK_QUEUE ? "" : `AGENTDOCK_TASK_QUEUE=${taskQueue}`,
      ].filter((assignment) => assignment !== "");
      const exportLine = exports.length === 0 ? "" : `export ${exports.join(" ")}; `;
      writeLine(
        context.stdout,
        `Temporal dev server: ${server.address} (namespace ${server.namespace})`,
      );
      if (server.uiUrl !== undefined) writeLine(context.stdout, `Web UI: ${server.uiUrl}`);
      writeLine(context.stdout, `Console: ${api.url}`);
      writeLine(context.stdout, `Worker: task queue "${taskQueue}"`);
      writeLine(context.stdout, `Database: ${dbFile}`);
      writeLine(
        context.stdout,
        `In another terminal: ${exportLine}npx agentdock-temporal chat cognitive-reasoner`,
      );
      writeLine(context.stdout, "Ctrl-C stops the worker and the server.");
      // A server that dies under the worker ends the command (exit 1) instead of a silent hang.
      const serverState = { died: false };
      void server.exited.then(() => {
        if (worker.getState() === "RUNNING") {
          serverState.died = true;
          worker.shutdown();
        }
      });
      await runUntilInterrupted(worker, context, "dev");
      if (serverState.died) throw new CliError("the Temporal dev server stopped unexpectedly");
    } finally {
      await stop();
      // On every way out, not only Ctrl-C: a stdio MCP server left running keeps dev alive.
      await toolRegistry.closeSources();
    }
    writeLine(context.stderr, "dev: stopped (sessions are kept in the database)");
    return ExitCode.ok;
  },
};
