import { existsSync, rmSync, writeFileSync } from "node:fs";
import { mkdir, readFile, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { sessionSearchAttributes } from "../session/search-attributes.ts";
import { connectClient } from "../temporal-connection.ts";
import {
  consoleIndexFile,
  startApiProcess,
  startWorkerProcess,
  type AppConnection,
} from "./app-processes.ts";
import { ClusterError } from "./cluster-error.ts";
import type { ClusterProcess } from "./cluster-process.ts";
import { choosePorts, servicePortsOf } from "./cluster-ports.ts";
import {
  readClusterSettings,
  writeClusterSettings,
  type ClusterSettings,
} from "./cluster-settings.ts";
import {
  findPostgres,
  initPostgres,
  postgresRunAs,
  preparePostgresDir,
  startPostgres,
} from "./postgres.ts";
import { setupSchemas } from "./schema-setup.ts";
import { renderDynamicConfig, renderServerConfig, type ServerPorts } from "./server-config.ts";
import {
  ensureClusterSearchAttributes,
  ensureNamespace,
  startTemporalServer,
  waitForServices,
} from "./temporal-server.ts";
import { ensureTemporalServer, temporalServerVersion } from "./temporal-server-build.ts";

const host = "127.0.0.1";
const configName = "cluster";
const projectDynamicConfig = new URL("../../deploy/temporal-dynamic-config.yaml", import.meta.url);

export interface ClusterOptions {
  /** Absolute: PostgreSQL's data, the server's config, the logs. Reused when it exists. */
  dataDir: string;
  /** Temporal's frontend (gRPC) port; 0 picks a free one. */
  port: number;
  /** PostgreSQL's port; 0 picks a free one. */
  postgresPort: number;
  /** The API and web console's port (0: a free one), or false for none. */
  apiPort: number | false;
  workers: number;
  namespace: string;
  taskQueue: string;
  /** Only when the cluster is created; undefined keeps the recorded (or default) number. */
  historyShards: number | undefined;
  retentionDays: number;
  env: Readonly<Record<string, string | undefined>>;
  progress: (line: string) => void;
}

export type ClusterRole = "postgres" | "server" | "worker" | "api";

export interface RunningProcess {
  role: ClusterRole;
  process: ClusterProcess;
}

export interface Cluster {
  dataDir: string;
  address: string;
  namespace: string;
  taskQueue: string;
  historyShards: number;
  postgresPort: number;
  ports: ServerPorts;
  apiUrl: string | undefined;
  /** Whether the console's files are built (`serve` answers / with them). */
  consoleBuilt: boolean;
  /** In start order: PostgreSQL, the server, the workers, the API. */
  processes: RunningProcess[];
  /** Where `cluster.json` (what runs, pids, ports, logs) is while the cluster runs. */
  stateFile: string;
  /** Stops everything in reverse start order; safe to call more than once. */
  stop(): Promise<void>;
}

/**
 * PostgreSQL, the Temporal server on it (schemas, namespace and the sessions' search attributes
 * set up), `workers` workers and the API: the one code path of `npm run cluster`, its test and its
 * benchmark. If a step fails, what was started is stopped before the error propagates.
 */
export async function startCluster(options: ClusterOptions): Promise<Cluster> {
  const { dataDir, progress, env } = options;
  const logsDir = join(dataDir, "logs");
  await mkdir(logsDir, { recursive: true });
  const started: RunningProcess[] = [];
  const stopAll = async (): Promise<void> => {
    for (const { role, process } of [...started].reverse()) {
      progress(`stopping ${process.name} (pid ${process.pid})…`);
      // PostgreSQL's SIGINT is its fast shutdown; the others take SIGTERM gracefully.
      await process.stop(role === "postgres" ? "SIGINT" : "SIGTERM", 30_000);
    }
    started.length = 0;
  };
  try {
    // Everything that can be refused is checked before the build, which can take minutes.
    const binaries = findPostgres(env);
    const runAs = postgresRunAs();
    const pgDir = join(dataDir, "postgres");
    await preparePostgresDir(pgDir, runAs.owner);
    const settings = await clusterSettingsFor(dataDir, options.historyShards);
    const ports = await choosePorts(options, settings.servicePorts);
    // Kept for the next start: the server remembers its services by address (PostgreSQL's
    // cluster_membership), and stale addresses leave it "not enough hosts" for a while.
    await writeClusterSettings(dataDir, { ...settings, servicePorts: servicePortsOf(ports) });
    const build = await ensureTemporalServer({ env, onProgress: progress });

    await initPostgres({ binaries, pgDir, user: runAs.user, env, onProgress: progress });
    progress(`starting PostgreSQL on ${host}:${ports.postgres}…`);
    const postgres = await startPostgres({
      binaries,
      pgDir,
      port: ports.postgres,
      user: runAs.user,
      env,
      logFile: join(logsDir, "postgres.log"),
    });
    started.push({ role: "postgres", process: postgres });
    await setupSchemas({
      sqlTool: build.sqlTool,
      schemaDir: build.schemaDir,
      port: ports.postgres,
      env,
      onProgress: progress,
    });

    const configDir = join(dataDir, "config");
    const dynamicConfigFile = join(configDir, "dynamicconfig", `${configName}.yaml`);
    await mkdir(join(configDir, "dynamicconfig"), { recursive: true });
    await writeFile(
      join(configDir, `${configName}.yaml`),
      renderServerConfig(await readFile(build.configTemplate, "utf8"), {
        ports,
        dynamicConfigFile,
        historyShards: settings.historyShards,
      }),
    );
    await writeFile(
      dynamicConfigFile,
      renderDynamicConfig(
        await readFile(build.dynamicConfigTemplate, "utf8"),
        await readFile(projectDynamicConfig, "utf8"),
        ports,
      ),
    );
    const address = `${host}:${ports.frontend}`;
    progress(`starting the Temporal server ${temporalServerVersion} on ${address}…`);
    const server = await startTemporalServer({
      server: build.server,
      root: dataDir,
      configName,
      address,
      env,
      logFile: join(logsDir, "temporal-server.log"),
    });
    started.push({ role: "server", process: server });
    const client = await connectClient({ address });
    try {
      if (await ensureNamespace(client, options.namespace, options.retentionDays)) {
        progress(`created namespace ${options.namespace}`);
      }
      await ensureClusterSearchAttributes(client, options.namespace, sessionSearchAttributes);
      await waitForServices(client, options.namespace, options.taskQueue);
    } finally {
      await client.close();
    }

    const connection: AppConnection = {
      address,
      namespace: options.namespace,
      taskQueue: options.taskQueue,
    };
    if (options.workers > 0) {
      progress(
        `starting ${options.workers} worker${options.workers === 1 ? "" : "s"} (bundling the workflows takes a few seconds)…`,
      );
    }
    // Side by side: each bundles the workflows, the slow part of a start.
    const workers = await Promise.allSettled(
      Array.from({ length: options.workers }, (_, index) =>
        startWorkerProcess({
          name: `worker ${index + 1}`,
          env,
          connection,
          logFile: join(logsDir, `worker-${index + 1}.log`),
        }),
      ),
    );
    for (const outcome of workers) {
      if (outcome.status === "fulfilled") started.push({ role: "worker", process: outcome.value });
    }
    const failed = workers.find((outcome) => outcome.status === "rejected");
    if (failed !== undefined) throw failed.reason;

    let apiUrl: string | undefined;
    if (options.apiPort !== false) {
      progress("starting the API and the web console…");
      const api = await startApiProcess({
        env,
        connection,
        port: options.apiPort,
        logFile: join(logsDir, "api.log"),
      });
      started.push({ role: "api", process: api.process });
      apiUrl = api.url;
    }

    const stateFile = join(dataDir, "cluster.json");
    const processes = [...started];
    const cluster: Cluster = {
      dataDir,
      address,
      namespace: options.namespace,
      taskQueue: options.taskQueue,
      historyShards: settings.historyShards,
      postgresPort: ports.postgres,
      ports,
      apiUrl,
      consoleBuilt: existsSync(consoleIndexFile),
      processes,
      stateFile,
      stop: (() => {
        let stopping: Promise<void> | undefined;
        return () => {
          stopping ??= stopAll().finally(() => {
            rmSync(stateFile, { force: true });
          });
          return stopping;
        };
      })(),
    };
    writeFileSync(stateFile, `${JSON.stringify(describeCluster(cluster), null, 2)}\n`);
    return cluster;
  } catch (error) {
    await stopAll();
    throw error;
  }
}

/** What `cluster.json` holds: enough for a script (or a test) to find every part. */
export function describeCluster(cluster: Cluster) {
  return {
    address: cluster.address,
    namespace: cluster.namespace,
    taskQueue: cluster.taskQueue,
    historyShards: cluster.historyShards,
    apiUrl: cluster.apiUrl ?? null,
    postgres: { port: cluster.postgresPort },
    processes: cluster.processes.map(({ role, process }) => ({
      role,
      name: process.name,
      pid: process.pid,
      log: process.logFile,
    })),
  };
}

async function clusterSettingsFor(
  dataDir: string,
  historyShards: number | undefined,
): Promise<ClusterSettings> {
  const recorded = await readClusterSettings(dataDir);
  if (recorded === undefined) {
    const settings = { historyShards: historyShards ?? 4 };
    await writeClusterSettings(dataDir, settings);
    return settings;
  }
  if (historyShards !== undefined && historyShards !== recorded.historyShards) {
    throw new ClusterError(
      `the cluster in ${dataDir} was created with ${recorded.historyShards} history shards; a cluster's shard count cannot change. Leave --history-shards out, or start a new cluster in another --data folder.`,
    );
  }
  return recorded;
}
