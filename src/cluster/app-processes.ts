import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { ClusterError } from "./cluster-error.ts";
import { startClusterProcess, type ClusterProcess } from "./cluster-process.ts";

/** The project's command line, run with this process's Node (24) like `npm run cli`. */
const cliEntry = fileURLToPath(new URL("../cli.ts", import.meta.url));
const projectDir = fileURLToPath(new URL("../..", import.meta.url));

export interface AppConnection {
  address: string;
  namespace: string;
  taskQueue: string;
}

/**
 * The environment of a worker or the API on the cluster: the caller's (model keys, tool folders,
 * tokens), with Temporal's connection variables replaced so nothing points them elsewhere.
 */
export function appEnv(
  env: Readonly<Record<string, string | undefined>>,
  connection: AppConnection,
): Record<string, string | undefined> {
  const kept = Object.entries(env).filter(([name]) => !name.startsWith("TEMPORAL_"));
  return {
    ...Object.fromEntries(kept),
    TEMPORAL_ADDRESS: connection.address,
    TEMPORAL_NAMESPACE: connection.namespace,
    AGENTDOCK_TASK_QUEUE: connection.taskQueue,
  };
}

/** `agentdock-temporal worker`, resolving once it polls its task queue. */
export async function startWorkerProcess(opts: {
  name: string;
  env: Readonly<Record<string, string | undefined>>;
  connection: AppConnection;
  logFile: string;
}): Promise<ClusterProcess> {
  const worker = startClusterProcess({
    name: opts.name,
    command: process.execPath,
    args: [cliEntry, "worker"],
    env: appEnv(opts.env, opts.connection),
    cwd: projectDir,
    logFile: opts.logFile,
  });
  await readyOrStopped(worker, /worker: polling task queue/);
  return worker;
}

/** `agentdock-temporal serve` (the HTTP API and the web console), with the URL it listens on. */
export async function startApiProcess(opts: {
  env: Readonly<Record<string, string | undefined>>;
  connection: AppConnection;
  port: number;
  logFile: string;
}): Promise<{ process: ClusterProcess; url: string }> {
  const api = startClusterProcess({
    name: "API",
    command: process.execPath,
    args: [cliEntry, "serve", "--port", String(opts.port), "--host", "127.0.0.1"],
    env: appEnv(opts.env, opts.connection),
    cwd: projectDir,
    logFile: opts.logFile,
  });
  const match = await readyOrStopped(api, /serve: HTTP API on (\S+)/);
  const url = match[1];
  if (url === undefined) throw new ClusterError(`the API printed no URL:\n${api.tail()}`);
  return { process: api, url };
}

/** The built web console `serve` answers / with (npm run build:console writes it). */
export const consoleIndexFile = join(projectDir, "dist", "web", "index.html");

async function readyOrStopped(child: ClusterProcess, pattern: RegExp): Promise<RegExpExecArray> {
  try {
    // Bundling the workflows takes seconds, more when several workers bundle on few cores.
    return await child.waitForOutput(pattern, 180_000);
  } catch (error) {
    await child.stop();
    throw error;
  }
}
