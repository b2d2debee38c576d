import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { WorkflowUpdateRPCTimeoutOrCancelledError } from "@temporalio/client";
import { SessionClient } from "../../src/client/index.ts";
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
} from "./support/child-node.ts";
import { driveConcurrently, type DriveResult } from "./support/drive-concurrently.ts";
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
  workerIdleRssMiB: number;
  workerPeakRssMiB: number;
  /** CPU time per turn (user + system): the worker process and the dev server. */
  workerCpuMsPerTurn: number;
  serverCpuMsPerTurn: number;
  baselineTurnsPerSecond: number;
  baselineP95TurnMs: number;
  baselinePeakRssMiB: number;
  /** Durable turns/s over in-process turns/s. */
  throughputRatio: number;
  p95Ratio: number;
  peakRssRatio: number;
}

export interface ScaleResult {
  turnsPerSession: number;
  workerTuning: WorkerTuning;
  points: ScalePoint[];
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

async function durable(context: BenchContext, bundlePath: string, sessions: number, turns: number) {
  const { address, namespace } = await context.temporal();
  const env = await context.env();
  const taskQueue = uniqueId(`bench-scale-${sessions}`);
  const tuning = context.settings.scaleWorkerTuning;
  const args: ScaleWorkerArgs = { address, namespace, taskQueue, bundlePath, tuning };
  const [serverPid] = childPidsNamed("temporal");
  if (serverPid === undefined) throw new Error("scale: no dev server process found");
  const worker = spawnNode("test/bench/scale-worker.ts", args);
  try {
    await waitForLine(worker, "bench-worker: ready");
    const options = /bench-worker: ready (.*)/.exec(worker.output())?.[1] ?? "{}";
    const effectiveOptions = JSON.parse(options) as EffectiveWorkerOptions;
    const idleRssBytes = residentMemory(worker.pid).rssBytes;
    const cpuBefore = { worker: cpuSeconds(worker.pid), server: cpuSeconds(serverPid) };
    const client = new SessionClient(env.client, taskQueue);
    const template = shippedAgent("cognitive-reasoner");
    const ids = Array.from({ length: sessions }, () => uniqueId("bench-scale"));
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
              ? client.sendWithStart({ template, sessionId }, text, "m1")
              : client.send(sessionId, text, `m${turn}`),
          () => (retries += 1),
        );
        if (result.error !== undefined)
          throw new Error(`scale: ${sessionId} turn ${turn}: ${result.error}`);
      },
      (done, total) => {
        context.progress(`scale ${sessions}: turn ${done}/${total}`);
      },
    );
    const perTurnMs = (seconds: number) => (seconds * 1000) / driven.latencies.length;
    return {
      driven,
      retries,
      effectiveOptions,
      idleRssBytes,
      peakRssBytes: residentMemory(worker.pid).peakRssBytes,
      workerCpuMsPerTurn: perTurnMs(cpuSeconds(worker.pid) - cpuBefore.worker),
      serverCpuMsPerTurn: perTurnMs(cpuSeconds(serverPid) - cpuBefore.server),
    };
  } finally {
    await stopChild(worker);
  }
}

async function inProcess(sessions: number, turns: number): Promise<InProcessScaleResult> {
  const child = spawnNode("test/bench/scale-in-process.ts", { sessions, turns });
  return JSON.parse(await lastLineOf(child)) as InProcessScaleResult;
}

/** Many concurrent sessions through one worker process, against the same turns in process. */
export async function runScaleBenchmark(context: BenchContext): Promise<BenchOutcome<ScaleResult>> {
  const turns = context.settings.scaleTurnsPerSession;
  const dir = mkdtempSync(join(tmpdir(), "agentdock-bench-"));
  const bundlePath = join(dir, "workflow-bundle.js");
  writeFileSync(bundlePath, (await sharedBundle()).code);
  const points: ScalePoint[] = [];
  try {
    for (const sessions of context.settings.scaleSessions) {
      const baseline = await inProcess(sessions, turns);
      const measured = await durable(context, bundlePath, sessions, turns);
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
        workerIdleRssMiB: mib(measured.idleRssBytes),
        workerPeakRssMiB: mib(measured.peakRssBytes),
        workerCpuMsPerTurn: round(measured.workerCpuMsPerTurn, 1),
        serverCpuMsPerTurn: round(measured.serverCpuMsPerTurn, 1),
        baselineTurnsPerSecond: round(b.turnsPerSecond),
        baselineP95TurnMs: round(b.p95, 1),
        baselinePeakRssMiB: mib(baseline.peakRssBytes),
        throughputRatio: ratio(d.turnsPerSecond, b.turnsPerSecond),
        p95Ratio: ratio(d.p95, b.p95),
        peakRssRatio: ratio(measured.peakRssBytes, baseline.peakRssBytes),
      });
    }
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
  return {
    result: { turnsPerSession: turns, workerTuning: context.settings.scaleWorkerTuning, points },
    summary: points.map((point): SummaryRow => ({
      benchmark: `scale ${point.sessions}`,
      figure: `${point.turnsPerSecond} turns/s, p95 ${point.p95TurnMs} ms (first turns ${point.p95FirstTurnMs}, later ${point.p95LaterTurnMs}), worker peak RSS ${point.workerPeakRssMiB} MiB (idle ${point.workerIdleRssMiB}); CPU per turn: worker ${point.workerCpuMsPerTurn} ms, server ${point.serverCpuMsPerTurn} ms`,
      baseline: `${point.baselineTurnsPerSecond} turns/s, p95 ${point.baselineP95TurnMs} ms, peak RSS ${point.baselinePeakRssMiB} MiB (in process)`,
      ratio: point.throughputRatio,
    })),
  };
}
