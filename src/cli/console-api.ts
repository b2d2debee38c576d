import { readFileSync } from "node:fs";
import type { ToolCatalogueEntry } from "../tools/index.ts";
import { Client } from "@temporalio/client";
import { DevServerError } from "../dev-server/dev-server-error.ts";
import { CliError } from "./cli-error.ts";
import { ExitCode } from "./exit-codes.ts";
import { portHolder, portIsFree } from "../dev-server/port-holder.ts";
import { apiGrpcRetryInterceptor } from "../server/api-grpc-retry.ts";
import { createApiServer, tenantTokensFromEnv } from "../server/index.ts";
import { connectClient } from "../temporal-connection.ts";

/** Where `npm start` and `dev` serve the API and the web console. */
export const CONSOLE_HOST = "127.0.0.1";
export const DEFAULT_CONSOLE_PORT = 8080;

/** How long chat streams in flight may finish when the stack stops. */
const CLOSE_GRACE_MS = 2_000;

export interface ConsoleApiOptions {
  env: NodeJS.ProcessEnv;
  /** 0 picks a free port. */
  port: number;
  /** The option that set the port, for the message when it is taken. */
  flag: string;
  address: string;
  namespace: string;
  taskQueue: string;
  agentsDirs: readonly string[];
  /** The tools templates are checked against (built-in plus plug-ins). */
  tools?: readonly ToolCatalogueEntry[];
  temporalUiUrl: string | undefined;
}

export interface ConsoleApi {
  /** `http://127.0.0.1:8080/`: what to open. */
  url: string;
  close(): Promise<void>;
}

/**
 * Refuses a fixed port another program holds before anything starts, naming that program, the
 * way the dev server's --port is refused.
 */
export async function checkConsolePort(port: number, flag: string): Promise<void> {
  if (port === 0 || (await portIsFree(CONSOLE_HOST, port))) return;
  throw portTaken(port, flag);
}

function portTaken(port: number, flag: string): DevServerError {
  const holder = portHolder(port);
  return new DevServerError(
    `port ${port} on ${CONSOLE_HOST} (${flag}) is in use by ${holder ?? "another program"}: stop it, or choose another ${flag} (0 picks a free one)`,
  );
}

/**
 * The HTTP API and the web console on loopback, for `npm start` and `dev`: the same server as
 * `serve`, honouring the same token variables (AGENTDOCK_API_TOKEN…), linking sessions to the
 * dev server's Web UI.
 */
export async function startConsoleApi(options: ConsoleApiOptions): Promise<ConsoleApi> {
  const tokens = tenantTokensFromEnv(options.env, (path) => readFileSync(path, "utf8"));
  // The API's own retry decider, as `serve` uses it.
  const connection = await connectClient({
    address: options.address,
    interceptors: [apiGrpcRetryInterceptor()],
  });
  const api = createApiServer({
    client: new Client({ connection, namespace: options.namespace }),
    taskQueue: options.taskQueue,
    agentsDirs: options.agentsDirs,
    ...(options.tools === undefined ? {} : { tools: options.tools }),
    tokens,
    ...(options.temporalUiUrl === undefined ? {} : { temporalUiUrl: options.temporalUiUrl }),
  });
  let url: string;
  try {
    ({ url } = await api.listen(options.port, CONSOLE_HOST));
  } catch (error) {
    await connection.close();
    // Taken between the check and now.
    if ((error as { code?: unknown }).code === "EADDRINUSE") {
      throw portTaken(options.port, options.flag);
    }
    throw error;
  }
  return {
    url: `${url}/`,
    close: async () => {
      try {
        await api.close(CLOSE_GRACE_MS);
      } finally {
        await connection.close();
      }
    },
  };
}

/** `--console-port` or its alias `--api-port` (both given: they must agree). */
export function consolePortOption(values: { "console-port"?: number; "api-port"?: number }): {
  port: number;
  flag: string;
} {
  const consolePort = values["console-port"];
  const apiPort = values["api-port"];
  if (consolePort !== undefined && apiPort !== undefined && consolePort !== apiPort) {
    throw new CliError(
      `--console-port ${consolePort} and --api-port ${apiPort} disagree: they name the same port (the API serves the console); give one`,
      ExitCode.usage,
    );
  }
  if (consolePort !== undefined) return { port: consolePort, flag: "--console-port" };
  if (apiPort !== undefined) return { port: apiPort, flag: "--api-port" };
  return { port: DEFAULT_CONSOLE_PORT, flag: "--console-port" };
}
