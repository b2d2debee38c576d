import { performance } from "node:perf_hooks";
import { Worker } from "@temporalio/worker";
import { sharedBundle } from "../support/temporal-env.ts";
import type { BenchContext } from "./support/bench-context.ts";
import { driveLongSession } from "./support/long-session.ts";
import type { BenchOutcome } from "./support/outcome.ts";
import { allRunHistories, totals, type RunHistory } from "./support/session-history.ts";
import { median, ratio, round, thousands } from "./support/stats.ts";

/** Replays of the 1-turn history: one to warm the replay worker up, then these, medianed. */
const baselineReplays = 5;

export interface ReplayResult {
  turns: number;
  runs: number;
  historyEvents: number;
  historyBytes: number;
  /** Every run of the long session, one after another in one replay worker. */
  replayMs: number;
  replayMsPerTurn: number;
  /** The current run only: what a worker replays to resume the session after a cache miss. */
  currentRunReplayMs: number;
  /** Each run of the long session: its size and how long its replay took. */
  runReplays: { events: number; bytes: number; replayMs: number }[];
  oneTurnHistoryEvents: number;
  oneTurnHistoryBytes: number;
  oneTurnReplayMs: number;
  ratioToBaseline: number;
}

interface Replayed {
  workflowId: string;
  run: RunHistory;
}

/** Replays each history in one replay worker (the tests' bundle); the time each one took, in order. */
async function replayTimes(items: readonly Replayed[]): Promise<number[]> {
  const times: number[] = [];
  let started = 0;
  function* histories() {
    for (const { workflowId, run } of items) {
      started = performance.now();
      yield { workflowId, history: run.history };
    }
  }
  const replays = Worker.runReplayHistories({ workflowBundle: await sharedBundle() }, histories());
  for await (const replay of replays) {
    times.push(performance.now() - started);
    if (replay.error !== undefined)
      throw new Error(`replay of ${replay.workflowId} (${replay.runId}) failed`, {
        cause: replay.error,
      });
  }
  return times;
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

  const baseline = { workflowId: short.workflowId, run: shortRun };
  const times = await replayTimes([
    ...Array.from({ length: baselineReplays + 1 }, () => baseline),
    ...runs.map((run) => ({ workflowId: long.workflowId, run })),
  ]);
  const oneTurnReplayMs = median(times.slice(1, baselineReplays + 1));
  const runTimes = times.slice(baselineReplays + 1);
  const replayMs = runTimes.reduce((sum, time) => sum + time, 0);
  const all = totals(runs);
  const result: ReplayResult = {
    turns: long.turns,
    runs: runs.length,
    historyEvents: all.events,
    historyBytes: all.bytes,
    replayMs: round(replayMs),
    replayMsPerTurn: round(replayMs / long.turns, 2),
    currentRunReplayMs: round(runTimes.at(-1) ?? Number.NaN, 1),
    runReplays: runs.map((run, index) => ({
      events: run.events,
      bytes: run.bytes,
      replayMs: round(runTimes[index] ?? Number.NaN, 1),
    })),
    oneTurnHistoryEvents: shortRun.events,
    oneTurnHistoryBytes: shortRun.bytes,
    oneTurnReplayMs: round(oneTurnReplayMs, 1),
    ratioToBaseline: ratio(replayMs, oneTurnReplayMs),
  };
  return {
    result,
    summary: [
      {
        benchmark: "replay",
        figure: `${thousands(result.replayMs)} ms to replay a ${long.turns}-turn session (${runs.length} runs, ${thousands(all.events)} events, ${thousands(all.bytes / 1024)} KiB); current run alone ${result.currentRunReplayMs} ms`,
        baseline: `${result.oneTurnReplayMs} ms for a 1-turn session`,
        ratio: result.ratioToBaseline,
      },
    ],
  };
}
