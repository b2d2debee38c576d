import { mkdirSync } from "node:fs";
import type { ToolCatalogueEntry } from "../tools/index.ts";
import { dirname, resolve } from "node:path";
import { NativeConnection, type Worker } from "@temporalio/worker";
import { startDevServer, type DevServer } from "../dev-server/dev-server.ts";
import { ensureTemporalCli } from "../dev-server/find-temporal-cli.ts";
import { sessionSearchAttributes } from "../session/index.ts";
import { checkConsolePort, startConsoleApi, type ConsoleApi } from "./console-api.ts";

export interface DevStackOptions {
  env: NodeJS.ProcessEnv;
  /** The dev server's SQLite file; its folder also holds dev-server.log. */
  db: string;
  port: number;
  uiPort: number;
  /** Progress lines for the person waiting ("starting the Temporal dev server…"). */
  progress: (line: string) => void;
  createWorker: (connection: NativeConnection, namespace: string) => Promise<Worker>;
  /** The HTTP API and web console on 127.0.0.1 (0 = a free port; `flag` names the option). */
  console: {
    port: number;
    flag: string;
    taskQueue: string;
    agentsDirs: readonly string[];
    /** The tools templates are checked against (built-in plus plug-ins). */
    tools?: readonly ToolCatalogueEntry[];
  };
}

export interface DevStack {
  server: DevServer;
  dbFile: string;
  connection: NativeConnection;
  /** Created, not running: the caller runs it and shuts it down before `stop`. */
  worker: Worker;
  /** The API and web console, serving until `stop`. */
  console: ConsoleApi;
  /** Stops the API and console, closes the worker's connection and stops the dev server. */
  stop: () => Promise<void>;
}

/**
 * A Temporal dev server (SQLite, Web UI, the session search attributes) and a worker on it: the
 * one code path `npm start` and `dev` share. If the worker cannot be created, what was started
 * is stopped before the error propagates.
 */
export async function startDevStack(options: DevStackOptions): Promise<DevStack> {
  // A taken console port is refused before anything starts.
  await checkConsolePort(options.console.port, options.console.flag);
  const cli = await ensureTemporalCli({ env: options.env, onProgress: options.progress });
  const dbFile = resolve(options.db);
  mkdirSync(dirname(dbFile), { recursive: true });
  options.progress(`starting the Temporal dev server (${dbFile})…`);
  const server = await startDevServer({
    cliPath: cli.path,
    dbFile,
    port: options.port,
    uiPort: options.uiPort,
    searchAttributes: sessionSearchAttributes,
    logFile: resolve(dirname(dbFile), "dev-server.log"),
    env: options.env,
  });
  let connection: NativeConnection | undefined;
  let consoleApi: ConsoleApi | undefined;
  try {
    connection = await NativeConnection.connect({ address: server.address });
    // Before the worker: a created worker that never runs could not be cleaned up here.
    consoleApi = await startConsoleApi({
      env: options.env,
      port: options.console.port,
      flag: options.console.flag,
      address: server.address,
      namespace: server.namespace,
      taskQueue: options.console.taskQueue,
      agentsDirs: options.console.agentsDirs,
      ...(options.console.tools === undefined ? {} : { tools: options.console.tools }),
      temporalUiUrl: server.uiUrl,
    });
    options.progress("starting a worker (bundling the workflow takes a few seconds)…");
    const worker = await options.createWorker(connection, server.namespace);
    const opened = connection;
    const api = consoleApi;
    return {
      server,
      dbFile,
      connection: opened,
      worker,
      console: api,
      stop: async () => {
        try {
          await api.close();
          await opened.close();
        } finally {
          await server.stop();
        }
      },
    };
  } catch (error) {
    await consoleApi?.close();
    await connection?.close();
    await server.stop();
    throw error;
  }
}
