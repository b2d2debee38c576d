import { chmodSync, mkdtempSync, readdirSync, readFileSync, rmSync } from "node:fs";
import { cpus, tmpdir } from "node:os";
import { join } from "node:path";
import { Client, WorkflowUpdateRPCTimeoutOrCancelledError } from "@temporalio/client";
import { z } from "zod";
import { SessionClient } from "../../src/client/index.ts";
import { startWorkerProcess } from "../../src/cluster/app-processes.ts";
import type { ClusterProcess } from "../../src/cluster/cluster-process.ts";
import { startCluster, type Cluster } from "../../src/cluster/start-cluster.ts";
import type { TurnResult } from "../../src/session/index.ts";
import { connectClient } from "../../src/temporal-connection.ts";
import { shippedAgent } from "../support/shipped-agents.ts";
import { uniqueId } from "../support/temporal-env.ts";
import type { BenchContext } from "./support/bench-context.ts";
import { cpuSeconds } from "./support/child-node.ts";
import { driveConcurrently } from "./support/drive-concurrently.ts";
import { shortMessage } from "./support/long-session.ts";
import type { BenchOutcome, SummaryRow } from "./support/outcome.ts";
import { median, percentile, ratio, round } from "./support/stats.ts";

export const clusterSettingsHelp = `  BENCH_CLUSTER_SESSIONS  concurrent sessions in cluster (100)
  BENCH_CLUSTER_TURNS     turns each cluster session runs (3)
  BENCH_CLUSTER_WORKERS   worker counts cluster measures, one after another (1,2)
  BENCH_CLUSTER_SHARDS    the cluster's history shards (4, the server's development default)`;

const count = (fallback: number) => z.coerce.number().int().positive().default(fallback);
const envSchema = z.object({
  BENCH_CLUSTER_SESSIONS: count(100),
  BENCH_CLUSTER_TURNS: count(3),
  BENCH_CLUSTER_WORKERS: z
    .string()
    .default("1,2")
    .transform((list) => list.split(",").map(Number))
    .pipe(z.array(z.number().int().positive().max(16)).min(1)),
  BENCH_CLUSTER_SHARDS: count(4),
});

export interface ClusterPoint {
  workers: number;
  turns: number;
  turnsPerSecond: number;
  medianTurnMs: number;
  p95TurnMs: number;
  p95FirstTurnMs: number;
  p95LaterTurnMs: number;
  updateTimeoutsRetried: number;
  /** CPU time per turn (user + system) of each part. */
  serverCpuMsPerTurn: number;
  postgresCpuMsPerTurn: number;
  workersCpuMsPerTurn: number;
  /** CPU cores the cluster's processes kept busy on average, and the whole machine (/proc/stat). */
  clusterCores: number;
  machineBusyCores: number;
  /** Turns/s over the first point's (one worker unless BENCH_CLUSTER_WORKERS says otherwise). */
  throughputRatio: number;
}

export interface ClusterBenchResult {
  sessions: number;
  turnsPerSession: number;
  historyShards: number;
  postgres: string;
  points: ClusterPoint[];
}

/** PostgreSQL is a postmaster and one backend per connection: all of them, children included. */
function postgresPids(postmaster: number): number[] {
  const children = readdirSync("/proc")
    .filter((entry) => /^\d+$/.test(entry))
    .filter((pid) => {
      try {
        const stat = readFileSync(`/proc/${pid}/stat`, "utf8");
        return Number(stat.slice(stat.lastIndexOf(")") + 2).split(" ")[1]) === postmaster;
      } catch {
        return false;
      }
    })
    .map(Number);
  return [postmaster, ...children];
}

function cpuOf(pids: readonly number[]): Map<number, number> {
  const seconds = new Map<number, number>();
  for (const pid of pids) {
    try {
      seconds.set(pid, cpuSeconds(pid));
    } catch {
      // Ended meanwhile: its time is lost, as it would be to ps.
    }
  }
  return seconds;
}

/** CPU seconds every core of the machine spent busy so far (/proc/stat: all but idle and iowait). */
function machineBusySeconds(): number {
  const line = readFileSync("/proc/stat", "utf8").split("\n")[0] ?? "";
  const ticks = line.trim().split(/\s+/).slice(1).map(Number);
  const total = ticks.reduce((sum, value) => sum + value, 0);
  return (total - (ticks[3] ?? 0) - (ticks[4] ?? 0)) / 100;
}

/** CPU seconds used between two readings; processes new in `after` count from zero. */
function cpuUsed(before: Map<number, number>, after: Map<number, number>): number {
  let total = 0;
  for (const [pid, seconds] of after) total += seconds - (before.get(pid) ?? 0);
  return total;
}

async function retryingTimeouts(send: () => Promise<TurnResult>, onRetry: () => void) {
  for (;;) {
    try {
      return await send();
    } catch (error) {
      if (!(error instanceof WorkflowUpdateRPCTimeoutOrCancelledError)) throw error;
      onRetry();
    }
  }
}

async function measure(
  context: BenchContext,
  cluster: Cluster,
  client: Client,
  workerCount: number,
  sessions: number,
  turns: number,
) {
  const taskQueue = uniqueId(`bench-cluster-${workerCount}`);
  const connection = { address: cluster.address, namespace: cluster.namespace, taskQueue };
  const workers: ClusterProcess[] = await Promise.all(
    Array.from({ length: workerCount }, (_, index) =>
      startWorkerProcess({
        name: `bench worker ${index + 1}`,
        env: process.env,
        connection,
        logFile: join(cluster.dataDir, "logs", `bench-worker-${index + 1}.log`),
      }),
    ),
  );
  try {
    const server = cluster.processes.find((entry) => entry.role === "server")?.process.pid ?? 0;
    const postmaster =
      cluster.processes.find((entry) => entry.role === "postgres")?.process.pid ?? 0;
    const workerPids = workers.map((worker) => worker.pid);
    const machineBefore = machineBusySeconds();
    const before = {
      server: cpuOf([server]),
      postgres: cpuOf(postgresPids(postmaster)),
      workers: cpuOf(workerPids),
    };
    const sessionsClient = new SessionClient(client, taskQueue);
    const template = shippedAgent("cognitive-reasoner");
    const ids = Array.from({ length: sessions }, () => uniqueId("bench-cluster"));
    let retries = 0;
    const driven = await driveConcurrently(
      sessions,
      turns,
      async (session, turn) => {
        const sessionId = ids[session] ?? "";
        const text = shortMessage(turn);
        const result = await retryingTimeouts(
          () =>
            turn === 1
              ? sessionsClient.sendWithStart({ template, sessionId }, text, "m1")
              : sessionsClient.send(sessionId, text, `m${turn}`),
          () => (retries += 1),
        );
        if (result.error !== undefined) {
          throw new Error(`cluster: ${sessionId} turn ${turn}: ${result.error}`);
        }
      },
      (done, total) => {
        context.progress(`cluster, ${workerCount} worker(s): turn ${done}/${total}`);
      },
    );
    const used = {
      server: cpuUsed(before.server, cpuOf([server])),
      postgres: cpuUsed(before.postgres, cpuOf(postgresPids(postmaster))),
      workers: cpuUsed(before.workers, cpuOf(workerPids)),
    };
    const machine = machineBusySeconds() - machineBefore;
    const perTurnMs = (seconds: number) => round((seconds * 1000) / driven.latencies.length, 1);
    const cores = (seconds: number) => round(seconds / (driven.elapsedMs / 1000), 2);
    return {
      driven,
      retries,
      serverCpuMsPerTurn: perTurnMs(used.server),
      postgresCpuMsPerTurn: perTurnMs(used.postgres),
      workersCpuMsPerTurn: perTurnMs(used.workers),
      clusterCores: cores(used.server + used.postgres + used.workers),
      machineBusyCores: cores(machine),
    };
  } finally {
    await Promise.all(workers.map((worker) => worker.stop()));
  }
}

/**
 * Turn throughput on the cluster `npm run cluster` starts (PostgreSQL, the Temporal server), with
 * one then two worker processes, the way `scale` drives the dev server: concurrent
 * cognitive-reasoner sessions, short turns, update-with-start then updates.
 */
export async function runClusterBenchmark(
  context: BenchContext,
): Promise<BenchOutcome<ClusterBenchResult>> {
  const settings = envSchema.parse(process.env);
  const dataDir = mkdtempSync(join(tmpdir(), "agentdock-bench-cluster-"));
  // PostgreSQL runs as the postgres user under root: it must reach the folder.
  chmodSync(dataDir, 0o755);
  const cluster = await startCluster({
    dataDir,
    port: 0,
    postgresPort: 0,
    apiPort: false,
    workers: 0,
    namespace: "default",
    taskQueue: "bench-cluster",
    historyShards: settings.BENCH_CLUSTER_SHARDS,
    retentionDays: 1,
    env: process.env,
    progress: (line) => {
      context.progress(line);
    },
  });
  const connection = await connectClient({ address: cluster.address });
  const points: ClusterPoint[] = [];
  try {
    const client = new Client({ connection, namespace: cluster.namespace });
    for (const workerCount of settings.BENCH_CLUSTER_WORKERS) {
      const measured = await measure(
        context,
        cluster,
        client,
        workerCount,
        settings.BENCH_CLUSTER_SESSIONS,
        settings.BENCH_CLUSTER_TURNS,
      );
      const { latencies, elapsedMs, firstTurnLatencies, laterTurnLatencies } = measured.driven;
      const turnsPerSecond = latencies.length / (elapsedMs / 1000);
      points.push({
        workers: workerCount,
        turns: latencies.length,
        turnsPerSecond: round(turnsPerSecond, 1),
        medianTurnMs: round(median(latencies)),
        p95TurnMs: round(percentile(latencies, 95)),
        p95FirstTurnMs: round(percentile(firstTurnLatencies, 95)),
        p95LaterTurnMs: round(percentile(laterTurnLatencies, 95)),
        updateTimeoutsRetried: measured.retries,
        serverCpuMsPerTurn: measured.serverCpuMsPerTurn,
        postgresCpuMsPerTurn: measured.postgresCpuMsPerTurn,
        workersCpuMsPerTurn: measured.workersCpuMsPerTurn,
        clusterCores: measured.clusterCores,
        machineBusyCores: measured.machineBusyCores,
        throughputRatio: ratio(turnsPerSecond, points[0]?.turnsPerSecond ?? turnsPerSecond),
      });
    }
  } finally {
    await connection.close();
    await cluster.stop();
    rmSync(dataDir, { recursive: true, force: true });
  }
  const first = points[0];
  return {
    result: {
      sessions: settings.BENCH_CLUSTER_SESSIONS,
      turnsPerSession: settings.BENCH_CLUSTER_TURNS,
      historyShards: cluster.historyShards,
      postgres: "Debian's package, defaults (npm run cluster)",
      points,
    },
    summary: points.map((point) => ({
      benchmark: `cluster, ${point.workers} worker${point.workers === 1 ? "" : "s"}`,
      figure: `${point.turnsPerSecond} turns/s, p95 ${point.p95TurnMs} ms (first turns ${point.p95FirstTurnMs}, later ${point.p95LaterTurnMs}); CPU per turn: server ${point.serverCpuMsPerTurn} ms, PostgreSQL ${point.postgresCpuMsPerTurn} ms, workers ${point.workersCpuMsPerTurn} ms; busy cores: cluster ${point.clusterCores}, machine ${point.machineBusyCores} of ${cpus().length}`,
      baseline: `${first?.turnsPerSecond ?? 0} turns/s with ${first?.workers ?? 0} worker(s)`,
      ratio: point.throughputRatio,
    })) satisfies SummaryRow[],
  };
}
