import { fileURLToPath } from "node:url";
import { performance } from "node:perf_hooks";
import { Client } from "@temporalio/client";
import proto from "@temporalio/proto";
import {
  bundleWorkflowCode,
  DefaultLogger,
  NativeConnection,
  Worker,
  type WorkflowBundle,
} from "@temporalio/worker";
import { connectClient } from "../../src/temporal-connection.ts";
import { sharedBundle, uniqueId } from "../support/temporal-env.ts";
import type { FloorActivities } from "./replay-floor-workflow.ts";
import type { BenchContext } from "./support/bench-context.ts";
import { driveLongSession } from "./support/long-session.ts";
import type { BenchOutcome } from "./support/outcome.ts";
import {
  allRunHistories,
  describeRun,
  totals,
  type RunHistory,
} from "./support/session-history.ts";
import { median, ratio, round, thousands } from "./support/stats.ts";

/** Replays of the 1-turn history after the warm-up one, medianed. */
const baselineReplays = 5;

/** One replayed run: its size, and the wall and process CPU time its replay took. */
export interface RunReplay {
  events: number;
  bytes: number;
  replayMs: number;
  cpuMs: number;
}

/** The floor: the same number of turns of a workflow with a session's shape and no work. */
export interface ReplayFloor {
  turns: number;
  events: number;
  workflowTasks: number;
  replayMs: number;
  cpuMs: number;
  cpuMsPerTurn: number;
  cpuMsPerWorkflowTask: number;
}

export interface ReplayResult {
  turns: number;
  /** Workflow tasks in every run of the long session (each one is an activation to replay). */
  workflowTasks: number;
  runs: number;
  historyEvents: number;
  historyBytes: number;
  /**
   * Not in any replay figure: awaiting the workflow bundle (built once per process, usually
   * already by the session worker), and the replay worker's creation with its first replay (a
   * 1-turn history: it loads the bundle into the workflow context).
   */
  setup: { bundleMs: number; workerAndWarmUpMs: number };
  /** Every run of the long session, one after another in the one replay worker (wall time). */
  replayMs: number;
  replayMsPerTurn: number;
  /**
   * The same replays in process CPU time (user + system): the SDK replays in this process's
   * main thread, so this is the replay's work, and unlike wall time the machine's load barely
   * moves it.
   */
  replayCpuMs: number;
  replayCpuMsPerTurn: number;
  /** The current run only: what a worker replays to resume the session after a cache miss. */
  currentRunReplayMs: number;
  currentRunCpuMs: number;
  runReplays: RunReplay[];
  oneTurnHistoryEvents: number;
  oneTurnHistoryBytes: number;
  oneTurnReplayMs: number;
  oneTurnCpuMs: number;
  ratioToBaseline: number;
  floor: ReplayFloor;
  /** Replay CPU over the floor's for the same number of turns. */
  ratioToFloor: number;
}

interface Replayed {
  workflowId: string;
  run: RunHistory;
}

interface ReplayTime {
  ms: number;
  cpuMs: number;
}

const cpuMsSince = (start: NodeJS.CpuUsage): number => {
  const used = process.cpuUsage(start);
  return (used.user + used.system) / 1000;
};

/**
 * Replays each history in order in one replay worker built from `bundle`; the wall and CPU time
 * each took, and the worker's creation (before the first history is asked for) apart.
 */
async function replayTimes(
  bundle: WorkflowBundle,
  items: readonly Replayed[],
): Promise<{ workerMs: number; times: ReplayTime[] }> {
  const times: ReplayTime[] = [];
  const created = performance.now();
  let workerMs = Number.NaN;
  let started = 0;
  let cpu = process.cpuUsage();
  function* histories() {
    for (const { workflowId, run } of items) {
      // The SDK asks for the next history only once the previous one's replay is reported.
      if (Number.isNaN(workerMs)) workerMs = performance.now() - created;
      started = performance.now();
      cpu = process.cpuUsage();
      yield { workflowId, history: run.history };
    }
  }
  const replays = Worker.runReplayHistories({ workflowBundle: bundle }, histories());
  for await (const replay of replays) {
    times.push({ ms: performance.now() - started, cpuMs: cpuMsSince(cpu) });
    if (replay.error !== undefined)
      throw new Error(`replay of ${replay.workflowId} (${replay.runId}) failed`, {
        cause: replay.error,
      });
  }
  return { workerMs, times };
}

const workflowTaskStarted = proto.temporal.api.enums.v1.EventType.EVENT_TYPE_WORKFLOW_TASK_STARTED;

function workflowTasksOf(run: RunHistory): number {
  return run.history.events?.filter((event) => event.eventType === workflowTaskStarted).length ?? 0;
}

/**
 * Runs `turns` turns of the floor workflow on the bench's server (its own worker and task
 * queue), then replays its history like the session's: once to warm the replay worker up, then
 * measured.
 */
async function measureFloor(context: BenchContext, turns: number): Promise<ReplayFloor> {
  const { address, namespace } = await context.temporal();
  const bundle = await bundleWorkflowCode({
    workflowsPath: fileURLToPath(new URL("./replay-floor-workflow.ts", import.meta.url)),
    logger: new DefaultLogger("WARN"),
  });
  const taskQueue = uniqueId("replay-floor");
  const activities: FloorActivities = {
    answer: (text) => Promise.resolve(`answer to ${text}`),
    check: () => Promise.resolve("available"),
  };
  const nativeConnection = await NativeConnection.connect({ address });
  const connection = await connectClient({ address });
  try {
    const worker = await Worker.create({
      connection: nativeConnection,
      namespace,
      taskQueue,
      workflowBundle: bundle,
      activities,
    });
    const client = new Client({ connection, namespace });
    const workflowId = uniqueId("replay-floor");
    const history = await worker.runUntil(async () => {
      const handle = await client.workflow.start("replayFloorSession", {
        args: [turns],
        taskQueue,
        workflowId,
      });
      for (let turn = 1; turn <= turns; turn++) {
        await handle.executeUpdate("turn", { args: [`message ${turn}`] });
        if (turn % 100 === 0 || turn === turns)
          context.progress(`replay floor: turn ${turn}/${turns}`);
      }
      await handle.result();
      return handle.fetchHistory();
    });
    const run = describeRun(workflowId, history);
    const { times } = await replayTimes(bundle, [
      { workflowId, run },
      { workflowId, run },
    ]);
    const measured = times[1] ?? { ms: Number.NaN, cpuMs: Number.NaN };
    const workflowTasks = workflowTasksOf(run);
    return {
      turns,
      events: run.events,
      workflowTasks,
      replayMs: round(measured.ms),
      cpuMs: round(measured.cpuMs),
      cpuMsPerTurn: round(measured.cpuMs / turns, 2),
      cpuMsPerWorkflowTask: round(measured.cpuMs / workflowTasks, 2),
    };
  } finally {
    await connection.close();
    await nativeConnection.close();
  }
}

/** Replaying the growth session's history (every run), against replaying a 1-turn session. */
export async function runReplayBenchmark(
  context: BenchContext,
): Promise<BenchOutcome<ReplayResult>> {
  const env = await context.env();
  context.longSession ??= await driveLongSession(
    context,
    "replay (session to replay)",
    context.settings.growthTurns,
  );
  const long = context.longSession;
  const short = await driveLongSession(context, "replay (1-turn session)", 1);
  const [shortRun] = await allRunHistories(env.client, short.workflowId);
  if (shortRun === undefined) throw new Error("the 1-turn session has no history");
  const runs = await allRunHistories(env.client, long.workflowId);

  const bundleStart = performance.now();
  const bundle = await sharedBundle();
  const bundleMs = performance.now() - bundleStart;
  const baseline = { workflowId: short.workflowId, run: shortRun };
  const { workerMs, times } = await replayTimes(bundle, [
    ...Array.from({ length: baselineReplays + 1 }, () => baseline),
    ...runs.map((run) => ({ workflowId: long.workflowId, run })),
  ]);
  const warmUp = times[0];
  const baselineTimes = times.slice(1, baselineReplays + 1);
  const runTimes = times.slice(baselineReplays + 1);
  const sum = (values: readonly number[]): number => values.reduce((a, b) => a + b, 0);
  const replayMs = sum(runTimes.map((time) => time.ms));
  const replayCpuMs = sum(runTimes.map((time) => time.cpuMs));
  const oneTurnReplayMs = median(baselineTimes.map((time) => time.ms));
  const current = runTimes.at(-1);
  const all = totals(runs);
  const floor = await measureFloor(context, long.turns);
  const result: ReplayResult = {
    turns: long.turns,
    workflowTasks: runs.reduce((sum, run) => sum + workflowTasksOf(run), 0),
    runs: runs.length,
    historyEvents: all.events,
    historyBytes: all.bytes,
    setup: {
      bundleMs: round(bundleMs, 1),
      workerAndWarmUpMs: round(workerMs + (warmUp?.ms ?? Number.NaN)),
    },
    replayMs: round(replayMs),
    replayMsPerTurn: round(replayMs / long.turns, 2),
    replayCpuMs: round(replayCpuMs),
    replayCpuMsPerTurn: round(replayCpuMs / long.turns, 2),
    currentRunReplayMs: round(current?.ms ?? Number.NaN, 1),
    currentRunCpuMs: round(current?.cpuMs ?? Number.NaN, 1),
    runReplays: runs.map((run, index) => ({
      events: run.events,
      bytes: run.bytes,
      replayMs: round(runTimes[index]?.ms ?? Number.NaN, 1),
      cpuMs: round(runTimes[index]?.cpuMs ?? Number.NaN, 1),
    })),
    oneTurnHistoryEvents: shortRun.events,
    oneTurnHistoryBytes: shortRun.bytes,
    oneTurnReplayMs: round(oneTurnReplayMs, 1),
    oneTurnCpuMs: round(median(baselineTimes.map((time) => time.cpuMs)), 1),
    ratioToBaseline: ratio(replayMs, oneTurnReplayMs),
    floor,
    ratioToFloor: ratio(replayCpuMs, floor.cpuMs),
  };
  return {
    result,
    summary: [
      {
        benchmark: "replay",
        figure: `${thousands(result.replayMs)} ms (${thousands(result.replayCpuMs)} ms CPU, ${result.replayCpuMsPerTurn} ms per turn) to replay a ${long.turns}-turn session (${runs.length} runs, ${thousands(all.events)} events, ${thousands(all.bytes / 1024)} KiB); current run alone ${result.currentRunReplayMs} ms (${result.currentRunCpuMs} ms CPU); setup apart: bundle ${result.setup.bundleMs} ms, replay worker + warm-up ${thousands(result.setup.workerAndWarmUpMs)} ms`,
        baseline: `${result.oneTurnReplayMs} ms (${result.oneTurnCpuMs} ms CPU) for a 1-turn session`,
        ratio: result.ratioToBaseline,
      },
      {
        benchmark: "replay",
        figure: `${thousands(result.replayCpuMs)} ms CPU to replay ${long.turns} turns (${thousands(result.workflowTasks)} workflow tasks, ${result.replayCpuMsPerTurn} ms per turn)`,
        baseline: `floor: ${thousands(floor.cpuMs)} ms CPU to replay ${floor.turns} turns of a workflow with a session's shape and no work (${thousands(floor.workflowTasks)} workflow tasks, ${floor.cpuMsPerTurn} ms per turn, ${floor.cpuMsPerWorkflowTask} ms per task)`,
        ratio: result.ratioToFloor,
      },
    ],
  };
}
