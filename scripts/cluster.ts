import { resolve } from "node:path";
import { parseArgs } from "node:util";
import { z } from "zod";
import { DEFAULT_TASK_QUEUE } from "../src/session/constants.ts";
import { ClusterError } from "../src/cluster/cluster-error.ts";
import { maxServerPort } from "../src/cluster/cluster-ports.ts";
import { startCluster, type Cluster } from "../src/cluster/start-cluster.ts";
import {
  ensureTemporalServer,
  temporalServerCacheDir,
  temporalServerVersion,
} from "../src/cluster/temporal-server-build.ts";

const help = `Usage: npm run cluster [-- options]

Runs a real Temporal cluster on this machine, with no Docker and no internet:
  1. PostgreSQL (Debian's package) in its own data folder, on 127.0.0.1 only
  2. the Temporal server ${temporalServerVersion}, built from its Go module with go install on the first
     run (a few minutes; cached in ${temporalServerCacheDir(process.env)}),
     its PostgreSQL schemas created or upgraded with its own SQL tool, the namespace and
     the sessions' search attributes registered
  3. two workers (agentdock-temporal worker), each its own process
  4. the HTTP API and the web console (agentdock-temporal serve)
Ctrl-C stops them in reverse order and leaves no process behind. The data stays: the next
run finds the same sessions. Logs: <data>/logs/; what runs: <data>/cluster.json.

Options:
  --data DIR            the cluster's folder (default ./.cluster). As root, PostgreSQL runs as
                        the postgres user, which must be able to reach it
  --port N              Temporal frontend (gRPC) port on 127.0.0.1 (default 7233, 0 = a free one;
                        at most 32767, the server's limit)
  --postgres-port N     PostgreSQL's port on 127.0.0.1 (default 0 = a free one)
  --api-port N          the API and web console's port (default 8080, 0 = a free one)
  --no-api              no API and console
  --workers N           worker processes (default 2; 0 runs only PostgreSQL and Temporal)
  --namespace NAME      namespace to create and use (default "default")
  --task-queue NAME     the workers' task queue (default AGENTDOCK_TASK_QUEUE or "${DEFAULT_TASK_QUEUE}")
  --history-shards N    history shards, fixed when the cluster is created (default 4)
  --retention-days N    how long closed sessions are kept, for a new namespace (default 7)
  --build-only          only find or build the Temporal server and its SQL tool, print where,
                        and exit (CI runs this once so the test does not pay for the build)
  -h, --help            this help

The workers and the API get this command's environment (model keys, AGENTDOCK_* settings)
with TEMPORAL_ADDRESS and TEMPORAL_NAMESPACE pointing at the cluster.

Needs: PostgreSQL (sudo apt-get install postgresql), Go for the first build (or the cache
above filled), setpriv (util-linux) when run as root. The Temporal server has no Web UI of its
own: the web console lists the sessions; for Temporal's UI use \`npm start\` (the dev server)
or docker compose.

Examples:
  npm run cluster
  npm run cluster -- --data /var/tmp/agentdock --port 0 --api-port 0 --workers 3
  TEMPORAL_ADDRESS=127.0.0.1:7233 npx agentdock-temporal send s1 "Hello" --agent general
`;

const port = z.coerce.number().int().min(0).max(65_535);
const argsSchema = z.object({
  data: z.string().min(1).default(".cluster"),
  // The server records its services' gRPC ports in a PostgreSQL SMALLINT column.
  port: port
    .max(maxServerPort, `at most ${maxServerPort}: the Temporal server stores it in a SMALLINT`)
    .default(7233),
  "postgres-port": port.default(0),
  "api-port": port.default(8080),
  "no-api": z.boolean().default(false),
  workers: z.coerce.number().int().min(0).max(32).default(2),
  namespace: z.string().trim().min(1).default("default"),
  "task-queue": z.string().trim().min(1).optional(),
  "history-shards": z.coerce.number().int().min(1).max(16_384).optional(),
  "retention-days": z.coerce.number().int().min(1).max(3_650).default(7),
  "build-only": z.boolean().default(false),
  help: z.boolean().default(false),
});

function progress(line: string): void {
  console.error(`cluster: ${line}`);
}

function summary(cluster: Cluster): string {
  const rows: [string, string][] = [
    [
      "Temporal",
      `${cluster.address}  namespace ${cluster.namespace}, task queue "${cluster.taskQueue}", ${cluster.historyShards} history shards`,
    ],
  ];
  for (const { role, process } of cluster.processes) {
    const where =
      role === "postgres"
        ? `127.0.0.1:${cluster.postgresPort}, `
        : role === "api" && cluster.apiUrl !== undefined
          ? `${cluster.apiUrl}, `
          : "";
    rows.push([process.name, `${where}pid ${process.pid}, log ${process.logFile}`]);
  }
  if (cluster.apiUrl !== undefined) {
    rows.push([
      "web console",
      cluster.consoleBuilt
        ? `${cluster.apiUrl}/`
        : "not built: run npm run build:console (the API answers without it)",
    ]);
  }
  rows.push(["Temporal Web UI", "none in the server (npm start and docker compose run one)"]);
  const width = Math.max(...rows.map(([name]) => name.length)) + 2;
  return [
    `agentdock-temporal cluster running (data ${cluster.dataDir})`,
    ...rows.map(([name, text]) => `  ${name.padEnd(width)}${text}`),
    "Try it:",
    `  TEMPORAL_ADDRESS=${cluster.address} TEMPORAL_NAMESPACE=${cluster.namespace} npx agentdock-temporal send s1 "Hello" --agent general`,
    "Ctrl-C stops everything; the data stays for the next start.",
  ].join("\n");
}

async function main(argv: string[], env: NodeJS.ProcessEnv): Promise<number> {
  const { values } = parseArgs({
    args: argv,
    options: {
      data: { type: "string" },
      port: { type: "string" },
      "postgres-port": { type: "string" },
      "api-port": { type: "string" },
      "no-api": { type: "boolean" },
      workers: { type: "string" },
      namespace: { type: "string" },
      "task-queue": { type: "string" },
      "history-shards": { type: "string" },
      "retention-days": { type: "string" },
      "build-only": { type: "boolean" },
      help: { type: "boolean", short: "h" },
    },
  });
  const parsed = argsSchema.safeParse(values);
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    console.error(`--${issue?.path.join(".") ?? "?"}: ${issue?.message ?? "invalid"}\n\n${help}`);
    return 2;
  }
  const options = parsed.data;
  if (options.help) {
    console.log(help);
    return 0;
  }
  if (options["build-only"]) {
    const build = await ensureTemporalServer({ env, onProgress: progress });
    console.log(`${build.server}\n${build.sqlTool}`);
    return 0;
  }

  // Until the cluster runs, a signal ends this process at once: setpriv's parent-death signal
  // stops whatever had started.
  const early = (): void => {
    progress("interrupted while starting");
    process.exit(130);
  };
  process.once("SIGINT", early);
  process.once("SIGTERM", early);
  const cluster = await startCluster({
    dataDir: resolve(options.data),
    port: options.port,
    postgresPort: options["postgres-port"],
    apiPort: options["no-api"] ? false : options["api-port"],
    workers: options.workers,
    namespace: options.namespace,
    taskQueue: options["task-queue"] ?? env["AGENTDOCK_TASK_QUEUE"] ?? DEFAULT_TASK_QUEUE,
    historyShards: options["history-shards"],
    retentionDays: options["retention-days"],
    env,
    progress,
  });
  process.removeListener("SIGINT", early);
  process.removeListener("SIGTERM", early);
  console.log(summary(cluster));

  let stopping = false;
  const outcome = await new Promise<number>((done) => {
    for (const signal of ["SIGINT", "SIGTERM", "SIGHUP"] as const) {
      process.on(signal, () => {
        if (stopping) {
          progress(`${signal} again: leaving at once (the parts get SIGTERM from the OS)`);
          process.exit(130);
        }
        progress(`${signal}: stopping (API, workers, Temporal server, PostgreSQL)…`);
        done(0);
      });
    }
    for (const { role, process: child } of cluster.processes) {
      void child.exited.then((exit) => {
        if (stopping) return;
        const how = exit.signal ?? `exit ${exit.code}`;
        if (role === "worker") {
          const left = cluster.processes.filter(
            (entry) => entry.role === "worker" && entry.process.running(),
          ).length;
          progress(
            `${child.name} (pid ${child.pid}) ended (${how}); ${left === 0 ? "no worker runs now: messages wait in Temporal until one does" : `the other ${left === 1 ? "worker takes" : `${left} workers take`} over its sessions`} (log ${child.logFile})`,
          );
          return;
        }
        progress(
          `${child.name} (pid ${child.pid}) ended (${how}): stopping the cluster. Its log: ${child.logFile}\n${child.tail()}`,
        );
        done(1);
      });
    }
  });
  stopping = true;
  await cluster.stop();
  progress("stopped");
  return outcome;
}

try {
  process.exitCode = await main(process.argv.slice(2), process.env);
} catch (error) {
  if (error instanceof ClusterError) {
    console.error(`cluster: ${error.message}`);
    process.exitCode = 1;
  } else if (
    error instanceof TypeError &&
    "code" in error &&
    String(error.code).startsWith("ERR_PARSE_ARGS")
  ) {
    console.error(`cluster: ${error.message}. Run with --help for usage.`);
    process.exitCode = 2;
  } else {
    console.error(error instanceof Error ? (error.stack ?? error.message) : error);
  }
  process.exitCode ??= 1;
}
