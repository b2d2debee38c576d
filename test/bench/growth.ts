import { workflowIdFor } from "../../src/session/index.ts";
import type { BenchContext } from "./support/bench-context.ts";
import { driveLongSession } from "./support/long-session.ts";
import type { BenchOutcome } from "./support/outcome.ts";
import {
  allRunHistories,
  carriedStateBytes,
  totals,
  type RunHistory,
} from "./support/session-history.ts";
import { median, ratio, round, thousands } from "./support/stats.ts";

/** Turns each "around turn N" figure averages over: (N - 5, N]. */
const windowTurns = 5;

export interface GrowthWindow {
  turn: number;
  historyBytesPerTurn: number;
  historyEventsPerTurn: number;
  medianTurnMs: number;
  /**
   * Whether a continue-as-new fell in the window. The state it carries (the new run's start event,
   * and the old run's closing event, which records it too) is not in `historyBytesPerTurn`: it is
   * recorded once per run, and counted in `carriedStateBytes`.
   */
  continuedAsNew: boolean;
}

export interface GrowthResult {
  turns: number;
  windows: GrowthWindow[];
  /** Turns after which the session continued as new. */
  continuedAsNewAfterTurns: number[];
  /** The state each continue-as-new carried into its new run (its start event), in bytes. */
  carriedStateBytes: number[];
  runs: number;
  totalHistoryEvents: number;
  totalHistoryBytes: number;
  currentRunEvents: number;
  currentRunBytes: number;
  /** Bytes per turn around the last checkpoint over bytes per turn around the first. */
  ratioToBaseline: number;
}

export function checkpointTurns(turns: number): number[] {
  const marks = [10, 100, 500].filter((mark) => mark <= turns);
  return marks.includes(turns) ? marks : [...marks, turns];
}

/** One session driven for BENCH_GROWTH_TURNS short turns: what history each turn adds over time. */
export async function runGrowthBenchmark(
  context: BenchContext,
): Promise<BenchOutcome<GrowthResult>> {
  const turns = context.settings.growthTurns;
  const env = await context.env();
  const checkpoints = checkpointTurns(turns).filter((turn) => turn > 1);
  const from = (turn: number): number => turn - Math.min(windowTurns, turn - 1);
  const measureAt = new Set(checkpoints.flatMap((turn) => [from(turn), turn]));
  const closedRuns = new Map<string, RunHistory>();
  const sizes = new Map<number, { events: number; bytes: number; carriedBytes: number }>();
  const latencies: number[] = [];
  const continuedAsNewAfterTurns: number[] = [];
  let run = 1;

  const session = await driveLongSession(context, "growth", turns, async (turn, result, ms) => {
    latencies.push(ms);
    if (result.state.run !== run) {
      continuedAsNewAfterTurns.push(turn - 1);
      run = result.state.run;
    }
    if (!measureAt.has(turn)) return;
    const workflowId = workflowIdFor(result.state.sessionId);
    sizes.set(turn, totals(await allRunHistories(env.client, workflowId, closedRuns)));
  });
  context.longSession = session;

  const size = (turn: number) =>
    sizes.get(turn) ?? { events: Number.NaN, bytes: Number.NaN, carriedBytes: Number.NaN };
  // A turn's own bytes: the carried state a continue-as-new records once per run is apart.
  const ownBytes = (turn: number) => size(turn).bytes - size(turn).carriedBytes;
  const windows = checkpoints.map((turn): GrowthWindow => {
    const start = from(turn);
    const span = turn - start;
    return {
      turn,
      historyBytesPerTurn: round((ownBytes(turn) - ownBytes(start)) / span),
      historyEventsPerTurn: round((size(turn).events - size(start).events) / span, 1),
      medianTurnMs: round(median(latencies.slice(start, turn)), 1),
      continuedAsNew: continuedAsNewAfterTurns.some((after) => after >= start && after < turn),
    };
  });
  const runs = await allRunHistories(env.client, session.workflowId, closedRuns);
  const all = totals(runs);
  const current = runs.at(-1);
  const first = windows[0];
  const last = windows.at(-1);
  const result: GrowthResult = {
    turns,
    windows,
    continuedAsNewAfterTurns,
    carriedStateBytes: runs.slice(1).map(carriedStateBytes),
    runs: runs.length,
    totalHistoryEvents: all.events,
    totalHistoryBytes: all.bytes,
    currentRunEvents: current?.events ?? 0,
    currentRunBytes: current?.bytes ?? 0,
    ratioToBaseline:
      first === undefined || last === undefined
        ? Number.NaN
        : ratio(last.historyBytesPerTurn, first.historyBytesPerTurn),
  };
  return {
    result,
    summary: [
      {
        benchmark: "growth",
        figure: `${thousands(last?.historyBytesPerTurn ?? Number.NaN)} history bytes per turn around turn ${last?.turn ?? "?"} (${windows.map((window) => `turn ${window.turn}: ${thousands(window.historyBytesPerTurn)}`).join(", ")}); continue-as-new after turns ${continuedAsNewAfterTurns.join(", ") || "none"}${result.carriedStateBytes.length === 0 ? "" : `, carrying ${result.carriedStateBytes.map(thousands).join(", ")} bytes of state (recorded twice per continue-as-new, at the old run's end and the new run's start; not in the per-turn figures)`}`,
        baseline: `${thousands(first?.historyBytesPerTurn ?? Number.NaN)} bytes per turn around turn ${first?.turn ?? "?"}`,
        ratio: result.ratioToBaseline,
      },
    ],
  };
}
