import { setTimeout as sleep } from "node:timers/promises";
import { z } from "zod";
import type { Connection } from "@temporalio/client";
import { msToTs } from "@temporalio/common/lib/time.js";
import { ensureSearchAttributes } from "../dev-server/ensure-search-attributes.ts";
import type { SearchAttributeType } from "../dev-server/search-attributes.ts";
import { lazyClient } from "../temporal-connection.ts";
import { ClusterError } from "./cluster-error.ts";
import { startClusterProcess, type ClusterProcess } from "./cluster-process.ts";

const notFound = 5;
const alreadyExists = 6;

/** `temporal-server start` with every service in one process, on the config in `root/config`. */
export async function startTemporalServer(opts: {
  server: string;
  root: string;
  configName: string;
  address: string;
  env: Readonly<Record<string, string | undefined>>;
  logFile: string;
  readyTimeoutMs?: number;
}): Promise<ClusterProcess> {
  const server = startClusterProcess({
    name: "Temporal server",
    command: opts.server,
    args: [
      ...["--root", opts.root, "--config", "config", "--env", opts.configName],
      ...["--allow-no-auth", "start"],
    ],
    env: opts.env,
    cwd: opts.root,
    logFile: opts.logFile,
  });
  const timeoutMs = opts.readyTimeoutMs ?? 120_000;
  const ready = waitForFrontend(opts.address, timeoutMs);
  const ended = server.exited.then(({ code, signal }) => {
    throw new ClusterError(
      `the Temporal server exited (${signal ?? `exit ${code}`}) while starting (log: ${opts.logFile}):\n${serverErrors(server.tail())}`,
    );
  });
  try {
    await Promise.race([ready, ended]);
  } catch (error) {
    await server.stop();
    throw error;
  }
  return server;
}

async function waitForFrontend(address: string, timeoutMs: number): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  let lastError: unknown;
  while (Date.now() < deadline) {
    const connection = lazyClient({ address, connectTimeout: 1_000 });
    try {
      await connection.withDeadline(Date.now() + 2_000, () =>
        connection.workflowService.getSystemInfo({}),
      );
      return;
    } catch (error) {
      lastError = error;
    } finally {
      await connection.close();
    }
    await sleep(250);
  }
  throw new ClusterError(
    `the Temporal server did not answer at ${address} within ${Math.round(timeoutMs / 1000)} s (last error: ${String(lastError)})`,
  );
}

/** Registers `namespace` unless it exists, and waits until it answers. */
export async function ensureNamespace(
  connection: Connection,
  namespace: string,
  retentionDays: number,
): Promise<boolean> {
  let created = false;
  try {
    await connection.workflowService.describeNamespace({ namespace });
  } catch (error) {
    if (codeOf(error) !== notFound) throw error;
    try {
      await connection.workflowService.registerNamespace({
        namespace,
        description: "agentdock-temporal sessions (npm run cluster)",
        workflowExecutionRetentionPeriod: msToTs(`${retentionDays} days`),
      });
      created = true;
    } catch (registerError) {
      if (codeOf(registerError) !== alreadyExists) throw registerError;
    }
  }
  await until(`namespace ${namespace} to answer`, 30_000, () =>
    connection.workflowService.describeNamespace({ namespace }),
  );
  return created;
}

/**
 * Registers the sessions' search attributes and waits until a visibility query accepts every one
 * of them: with PostgreSQL visibility they are per-namespace aliases, seen after a cache refresh.
 */
export async function ensureClusterSearchAttributes(
  connection: Connection,
  namespace: string,
  wanted: Readonly<Record<string, SearchAttributeType>>,
): Promise<void> {
  // The operator service reads namespaces through a cache: a new one shows there a little later.
  await until(`namespace ${namespace} to take search attributes`, 30_000, () =>
    ensureSearchAttributes(connection, namespace, wanted),
  );
  const query = Object.entries(wanted)
    .map(([name, type]) => `${name} = ${type === "Int" ? "0" : "'probe'"}`)
    .join(" AND ");
  await until(`the search attributes to be queryable in ${namespace}`, 60_000, () =>
    connection.workflowService.listWorkflowExecutions({ namespace, query, pageSize: 1 }),
  );
}

/**
 * Waits until the history and matching services answer for `namespace`: the frontend answers
 * first, and after a restart the services may wait for the membership ring ("Not enough hosts
 * to serve the request"). A workflow that does not exist is an answer from history.
 */
export async function waitForServices(
  connection: Connection,
  namespace: string,
  taskQueue: string,
): Promise<void> {
  await until("the history and matching services to answer", 120_000, async () => {
    await connection.workflowService.describeTaskQueue({
      namespace,
      taskQueue: { name: taskQueue },
    });
    try {
      await connection.workflowService.describeWorkflowExecution({
        namespace,
        execution: { workflowId: "agentdock-cluster-readiness-probe" },
      });
    } catch (error) {
      if (codeOf(error) !== notFound) throw error;
    }
  });
}

async function until(
  what: string,
  timeoutMs: number,
  probe: () => Promise<unknown>,
): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    try {
      await probe();
      return;
    } catch (error) {
      if (Date.now() > deadline) {
        throw new ClusterError(
          `gave up waiting ${Math.round(timeoutMs / 1000)} s for ${what}: ${error instanceof Error ? error.message : String(error)}`,
        );
      }
      await sleep(250);
    }
  }
}

/** The errors in the server's JSON log lines ("msg: error"), or the lines as they are. */
function serverErrors(tail: string): string {
  const errors = tail.split("\n").flatMap((line) => {
    try {
      const entry = z.object({ level: z.string(), msg: z.string(), error: z.string().optional() });
      const parsed = entry.parse(JSON.parse(line));
      if (parsed.level !== "error" && parsed.level !== "fatal") return [];
      return [
        `${parsed.level}: ${parsed.msg}${parsed.error === undefined ? "" : `: ${parsed.error}`}`,
      ];
    } catch {
      return [];
    }
  });
  return errors.length === 0 ? tail : [...new Set(errors)].slice(-5).join("\n");
}

function codeOf(error: unknown): number | undefined {
  return typeof error === "object" && error !== null && "code" in error
    ? Number(error.code)
    : undefined;
}
