import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { WorkflowUpdateRPCTimeoutOrCancelledError } from "@temporalio/client";
import { DEFAULT_ROOM_WAIT, SessionClient } from "../../src/client/index.ts";
import type { TurnResult } from "../../src/session/index.ts";
import { shippedAgent } from "../support/shipped-agents.ts";
import { sharedBundle, uniqueId } from "../support/temporal-env.ts";
import type { InProcessScaleResult } from "./scale-in-process.ts";
import type { EffectiveWorkerOptions, ScaleWorkerArgs } from "./scale-worker.ts";
import type { WorkerTuning } from "./support/worker-tuning.ts";
import type { BenchContext } from "./support/bench-context.ts";
import {
  childPidsNamed,
  cpuSeconds,
  lastLineOf,
  residentMemory,
  spawnNode,
  stopChild,
  waitForLine,
  type NodeChild,
} from "./support/child-node.ts";
import { driveConcurrently, type DriveResult } from "./support/drive-concurrently.ts";
import { driveOpenLoop } from "./support/drive-open-loop.ts";
import { parseOpenLoopSettings, type OpenLoopSettings } from "./support/open-loop-settings.ts";
import { shortMessage } from "./support/long-session.ts";
import type { BenchOutcome, SummaryRow } from "./support/outcome.ts";
import { median, percentile, ratio, round } from "./support/stats.ts";

const mib = (bytes: number): number => round(bytes / 2 ** 20, 1);

export interface ScalePoint {
  sessions: number;
  workerOptions: EffectiveWorkerOptions;
  turns: number;
  turnsPerSecond: number;
  medianTurnMs: number;
  p95TurnMs: number;
  /** p95 of each session's first turn (update-with-start) and of the turns after it. */
  p95FirstTurnMs: number;
  p95LaterTurnMs: number;
  /** Update calls that timed out waiting for the worker to accept them, and were sent again. */
  updateTimeoutsRetried: number;
  /** Update calls refused while the session's workflow task was failed (timed out), sent again. */
  updatesRefusedRetried: number;
  workerIdleRssMiB: number;
  workerPeakRssMiB: number;
  /** CPU time per turn (user + system): the worker process and the dev server. */
  workerCpuMsPerTurn: number;
  serverCpuMsPerTurn: number;
  workerPlusServerCpuMsPerTurn: number;
  /** The most sessions the worker's cache held (its own count, sampled every second). */
  cachedSessions: number;
  baselineTurnsPerSecond: number;
  baselineP95TurnMs: number;
  baselinePeakRssMiB: number;
  /** Durable turns/s over in-process turns/s. */
  throughputRatio: number;
  p95Ratio: number;
  peakRssRatio: number;
}

/**
 * Sessions arriving on a schedule at a share of the capacity measured just before, closed loop,
 * on a worker of its own (the 1,000 sessions at 80 %).
 */
export interface OpenLoopPoint {
  capacityTurnsPerSecond: number;
  /** Sessions × turns of the closed-loop run that measured the capacity. */
  capacitySessions: number;
  load: number;
  offeredTurnsPerSecond: number;
  /** What the worker answered: offered, if it kept up. */
  achievedTurnsPerSecond: number;
  sessions: number;
  turnsPerSession: number;
  /** From each session's scheduled arrival to its first answer (update-with-start). */
  firstTurnP50Ms: number;
  firstTurnP95Ms: number;
  laterTurnP95Ms: number;
  /** How late the load generator started its latest session (its own lag, not the worker's). */
  generatorMaxLagMs: number;
  updateTimeoutsRetried: number;
  updatesRefusedRetried: number;
  workerOptions: EffectiveWorkerOptions;
  workerIdleRssMiB: number;
  workerPeakRssMiB: number;
  /** The most sessions the worker's cache held (its own count, sampled every second). */
  cachedSessions: number;
  /** (peak − idle RSS) / cached sessions: what one more cached session costs. */
  rssMiBPerCachedSession: number;
  workerCpuMsPerTurn: number;
  serverCpuMsPerTurn: number;
  workerPlusServerCpuMsPerTurn: number;
}

export interface ScaleResult {
  turnsPerSession: number;
  workerTuning: WorkerTuning;
  points: ScalePoint[];
  openLoop?: OpenLoopPoint;
}

function figures(driven: DriveResult) {
  return {
    turnsPerSecond: driven.latencies.length / (driven.elapsedMs / 1000),
    median: median(driven.latencies),
    p95: percentile(driven.latencies, 95),
  };
}

/**
 * An overloaded worker may not accept an update before the RPC's deadline; the session answers a
 * repeated messageId with the first one's result, so sending it again is safe, as a client would.
 * (A refusal while the workflow task is failed is retried by SessionClient itself.)
 */
async function retryingTimeouts(
  send: () => Promise<TurnResult>,
  onRetry: () => void,
): Promise<TurnResult> {
  for (;;) {
    try {
      return await send();
    } catch (error) {
      if (!(error instanceof WorkflowUpdateRPCTimeoutOrCancelledError)) throw error;
      onRetry();
    }
  }
}

/** A failed drive says what the worker printed last (a failed workflow task's reason is there). */
async function withWorkerOutput<T>(
  worker: NodeChild,
  label: string,
  drive: () => Promise<T>,
): Promise<T> {
  try {
    return await drive();
  } catch (error) {
    const tail = worker
      .output()
      .split("\n")
      .filter((line) => !line.startsWith("bench-worker: cached"));
    throw new Error(
      `${label}: ${(error as Error).message}\nthe worker's last lines:\n${tail.slice(-40).join("\n")}`,
      { cause: error },
    );
  }
}

interface DurableRun<T> {
  driven: T;
  retries: number;
  refusedRetries: number;
  effectiveOptions: EffectiveWorkerOptions;
  idleRssBytes: number;
  peakRssBytes: number;
  cachedSessions: number;
  workerCpuMsPerTurn: number;
  serverCpuMsPerTurn: number;
}

type Drive<T extends DriveResult> = (
  runTurn: (session: number, turn: number) => Promise<void>,
  progress: (done: number, total: number) => void,
) => Promise<T>;

/**
 * One scale worker process on a task queue of its own, driven by `drive`: its RSS, its cache
 * count and the CPU time it and the dev server spent over the drive (/proc), per turn.
 */
async function durable<T extends DriveResult>(
  context: BenchContext,
  bundlePath: string,
  label: string,
  sessions: number,
  drive: Drive<T>,
): Promise<DurableRun<T>> {
  const { address, namespace } = await context.temporal();
  const env = await context.env();
  const taskQueue = uniqueId(`bench-scale-${sessions}`);
  const tuning = context.settings.scaleWorkerTuning;
  const args: ScaleWorkerArgs = { address, namespace, taskQueue, bundlePath, tuning };
  const [serverPid] = childPidsNamed("temporal");
  if (serverPid === undefined) throw new Error("scale: no dev server process found");
  // BENCH_SCALE_CPU_PROF=<dir>: a V8 CPU profile of each worker thread (main and workflow), to
  // see where a turn's CPU goes.
  const profileDir = process.env.BENCH_SCALE_CPU_PROF;
  const flags = profileDir === undefined ? [] : ["--cpu-prof", `--cpu-prof-dir=${profileDir}`];
  const worker = spawnNode("test/bench/scale-worker.ts", args, flags);
  try {
    await waitForLine(worker, "bench-worker: ready");
    const options = /bench-worker: ready (.*)/.exec(worker.output())?.[1] ?? "{}";
    const effectiveOptions = JSON.parse(options) as EffectiveWorkerOptions;
    const idleRssBytes = residentMemory(worker.pid).rssBytes;
    const cpuBefore = { worker: cpuSeconds(worker.pid), server: cpuSeconds(serverPid) };
    let retries = 0;
    let refusedRetries = 0;
    const client = new SessionClient(env.client, taskQueue, {
      // An overloaded worker lets tasks time out for longer than an interactive caller waits.
      roomWait: { ...DEFAULT_ROOM_WAIT, failedTaskWaitMs: 5 * 60_000 },
      onRetry: ({ reason }) => {
        if (reason === "workflow-task-failing") refusedRetries += 1;
      },
    });
    const template = shippedAgent("cognitive-reasoner");
    const ids = Array.from({ length: sessions }, () => uniqueId("bench-scale"));
    const driven = await withWorkerOutput(worker, label, () =>
      drive(
        async (session, turn) => {
          const sessionId = ids[session] ?? "";
          const text = shortMessage(turn);
          const result = await retryingTimeouts(
            () =>
              turn === 1
                ? client.sendWithStart({ template, sessionId }, text, "m1")
                : client.send(sessionId, text, `m${turn}`),
            () => {
              retries += 1;
            },
          );
          if (result.error !== undefined)
            throw new Error(`scale: ${sessionId} turn ${turn}: ${result.error}`);
        },
        (done, total) => {
          context.progress(`${label}: turn ${done}/${total}`);
        },
      ),
    );
    const perTurnMs = (seconds: number) => (seconds * 1000) / driven.latencies.length;
    const workerCpuMsPerTurn = perTurnMs(cpuSeconds(worker.pid) - cpuBefore.worker);
    const serverCpuMsPerTurn = perTurnMs(cpuSeconds(serverPid) - cpuBefore.server);
    const cached = [...worker.output().matchAll(/bench-worker: cached (\d+)/g)].map((m) =>
      Number(m[1]),
    );
    return {
      driven,
      retries,
      refusedRetries,
      effectiveOptions,
      idleRssBytes,
      peakRssBytes: residentMemory(worker.pid).peakRssBytes,
      cachedSessions: Math.max(0, ...cached),
      workerCpuMsPerTurn,
      serverCpuMsPerTurn,
    };
  } finally {
    await stopChild(worker);
  }
}

async function inProcess(sessions: number, turns: number): Promise<InProcessScaleResult> {
  const child = spawnNode("test/bench/scale-in-process.ts", { sessions, turns });
  return JSON.parse(await lastLineOf(child)) as InProcessScaleResult;
}

/**
 * Capacity first (a short closed-loop run on a worker of its own), then `settings.sessions`
 * arriving on a schedule at `load` × that capacity, on a fresh worker.
 */
async function openLoop(
  context: BenchContext,
  bundlePath: string,
  settings: OpenLoopSettings,
): Promise<OpenLoopPoint> {
  const turns = context.settings.scaleTurnsPerSession;
  const { capacitySessions, sessions, load } = settings;
  const capacityRun = await durable(context, bundlePath, "capacity", capacitySessions, (run, p) =>
    driveConcurrently(capacitySessions, turns, run, p),
  );
  const capacity = figures(capacityRun.driven).turnsPerSecond;
  const offered = capacity * load;
  context.progress(
    `open loop: capacity ${round(capacity, 1)} turns/s; offering ${round(offered, 1)} turns/s (${sessions} sessions × ${turns} turns)`,
  );
  const measured = await durable(context, bundlePath, "open loop", sessions, (run, p) =>
    driveOpenLoop(sessions, turns, offered / turns, run, p),
  );
  const { driven } = measured;
  const rssPerSession =
    measured.cachedSessions === 0
      ? Number.NaN
      : (measured.peakRssBytes - measured.idleRssBytes) / 2 ** 20 / measured.cachedSessions;
  return {
    capacityTurnsPerSecond: round(capacity, 1),
    capacitySessions,
    load,
    offeredTurnsPerSecond: round(offered, 1),
    achievedTurnsPerSecond: round(figures(driven).turnsPerSecond, 1),
    sessions,
    turnsPerSession: turns,
    firstTurnP50Ms: round(median(driven.firstTurnLatencies)),
    firstTurnP95Ms: round(percentile(driven.firstTurnLatencies, 95)),
    laterTurnP95Ms: round(percentile(driven.laterTurnLatencies, 95)),
    generatorMaxLagMs: round(driven.maxStartLagMs),
    updateTimeoutsRetried: measured.retries,
    updatesRefusedRetried: measured.refusedRetries,
    workerOptions: measured.effectiveOptions,
    workerIdleRssMiB: mib(measured.idleRssBytes),
    workerPeakRssMiB: mib(measured.peakRssBytes),
    cachedSessions: measured.cachedSessions,
    rssMiBPerCachedSession: round(rssPerSession, 2),
    workerCpuMsPerTurn: round(measured.workerCpuMsPerTurn, 1),
    serverCpuMsPerTurn: round(measured.serverCpuMsPerTurn, 1),
    workerPlusServerCpuMsPerTurn: round(
      measured.workerCpuMsPerTurn + measured.serverCpuMsPerTurn,
      1,
    ),
  };
}

/** Many concurrent sessions through one worker process, against the same turns in process. */
export async function runScaleBenchmark(context: BenchContext): Promise<BenchOutcome<ScaleResult>> {
  const turns = context.settings.scaleTurnsPerSession;
  const openLoopSettings = parseOpenLoopSettings(process.env);
  const dir = mkdtempSync(join(tmpdir(), "agentdock-bench-"));
  const bundlePath = join(dir, "workflow-bundle.js");
  writeFileSync(bundlePath, (await sharedBundle()).code);
  const points: ScalePoint[] = [];
  let open: OpenLoopPoint | undefined;
  try {
    for (const sessions of context.settings.scaleSessions) {
      const baseline = await inProcess(sessions, turns);
      const measured = await durable(
        context,
        bundlePath,
        `scale ${sessions}`,
        sessions,
        (run, progress) => driveConcurrently(sessions, turns, run, progress),
      );
      const d = figures(measured.driven);
      const b = figures(baseline);
      points.push({
        sessions,
        workerOptions: measured.effectiveOptions,
        turns: sessions * turns,
        turnsPerSecond: round(d.turnsPerSecond, 1),
        medianTurnMs: round(d.median),
        p95TurnMs: round(d.p95),
        p95FirstTurnMs: round(percentile(measured.driven.firstTurnLatencies, 95)),
        p95LaterTurnMs: round(percentile(measured.driven.laterTurnLatencies, 95)),
        updateTimeoutsRetried: measured.retries,
        updatesRefusedRetried: measured.refusedRetries,
        workerIdleRssMiB: mib(measured.idleRssBytes),
        workerPeakRssMiB: mib(measured.peakRssBytes),
        workerCpuMsPerTurn: round(measured.workerCpuMsPerTurn, 1),
        serverCpuMsPerTurn: round(measured.serverCpuMsPerTurn, 1),
        workerPlusServerCpuMsPerTurn: round(
          measured.workerCpuMsPerTurn + measured.serverCpuMsPerTurn,
          1,
        ),
        cachedSessions: measured.cachedSessions,
        baselineTurnsPerSecond: round(b.turnsPerSecond),
        baselineP95TurnMs: round(b.p95, 1),
        baselinePeakRssMiB: mib(baseline.peakRssBytes),
        throughputRatio: ratio(d.turnsPerSecond, b.turnsPerSecond),
        p95Ratio: ratio(d.p95, b.p95),
        peakRssRatio: ratio(measured.peakRssBytes, baseline.peakRssBytes),
      });
    }
    if (openLoopSettings.sessions > 0) open = await openLoop(context, bundlePath, openLoopSettings);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
  return {
    result: {
      turnsPerSession: turns,
      workerTuning: context.settings.scaleWorkerTuning,
      points,
      ...(open === undefined ? {} : { openLoop: open }),
    },
    summary: [...points.map(closedLoopRow), ...(open === undefined ? [] : [openLoopRow(open)])],
  };
}

function openLoopRow(open: OpenLoopPoint): SummaryRow {
  return {
    benchmark: `scale open loop: ${open.sessions} sessions × ${open.turnsPerSession} turns arriving at ${open.load * 100} % of capacity`,
    figure: `first turn p50 ${open.firstTurnP50Ms} ms, p95 ${open.firstTurnP95Ms} ms (later turns p95 ${open.laterTurnP95Ms} ms); ${open.achievedTurnsPerSecond} of ${open.offeredTurnsPerSecond} turns/s offered; worker peak RSS ${open.workerPeakRssMiB} MiB, ${open.rssMiBPerCachedSession} MiB per cached session (${open.cachedSessions} cached); CPU per turn: worker ${open.workerCpuMsPerTurn} ms + server ${open.serverCpuMsPerTurn} ms`,
    baseline: `capacity ${open.capacityTurnsPerSecond} turns/s (${open.capacitySessions} sessions, closed loop)`,
    ratio: ratio(open.achievedTurnsPerSecond, open.capacityTurnsPerSecond),
  };
}

function closedLoopRow(point: ScalePoint): SummaryRow {
  return {
    benchmark: `scale ${point.sessions}`,
    figure: `${point.turnsPerSecond} turns/s, p95 ${point.p95TurnMs} ms (first turns ${point.p95FirstTurnMs}, later ${point.p95LaterTurnMs}), worker peak RSS ${point.workerPeakRssMiB} MiB (idle ${point.workerIdleRssMiB}); CPU per turn: worker ${point.workerCpuMsPerTurn} ms + server ${point.serverCpuMsPerTurn} ms = ${point.workerPlusServerCpuMsPerTurn} ms; ${point.cachedSessions} sessions cached`,
    baseline: `${point.baselineTurnsPerSecond} turns/s, p95 ${point.baselineP95TurnMs} ms, peak RSS ${point.baselinePeakRssMiB} MiB (in process)`,
    ratio: point.throughputRatio,
  };
}
