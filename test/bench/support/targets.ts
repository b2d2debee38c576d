import type { Direction, Figures } from "./figures.ts";

/** A target of issue 14: a figure of bench/results.json and the bound it must reach. */
export interface Target {
  /** The figure's path, as `flattenFigures` names it. */
  figure: string;
  /** "≥" at least, "≤" at most, "<" strictly below. */
  bound: "≥" | "≤" | "<";
  target: number;
  unit: string;
  text: string;
}

export const targets: readonly Target[] = [
  {
    figure: "core.decisionsPerSecond",
    bound: "≥",
    target: 2_000_000,
    unit: "decisions/s",
    text: "core decisions per second, 20-step template",
  },
  {
    figure: "turn.ratioToFloor",
    bound: "≤",
    target: 1.0,
    unit: "× floor",
    text: "durable turn against the bare-workflow floor (same activities, update-with-start)",
  },
  {
    figure: "turn.ratioTo100msInProcess",
    bound: "≤",
    target: 1.1,
    unit: "× in process",
    text: "durable turn against the AI SDK in process, both with a 100 ms model",
  },
  {
    figure: "scale.points[sessions=1000].workerPlusServerCpuMsPerTurn",
    bound: "≤",
    target: 20,
    unit: "ms CPU/turn",
    text: "worker + server CPU per turn at 1,000 sessions",
  },
  {
    figure: "turn.historyBytesPerConversationByte",
    bound: "≤",
    target: 3,
    unit: "bytes/byte",
    text: "history bytes per byte of conversation",
  },
  {
    figure: "scale.openLoop.firstTurnP95Ms",
    bound: "≤",
    target: 2000,
    unit: "ms",
    text: "p95 first turn, 1,000 sessions, open loop at 80 % of capacity",
  },
  {
    figure: "scale.openLoop.rssMiBPerCachedSession",
    bound: "≤",
    target: 0.5,
    unit: "MiB/session",
    text: "worker RSS per cached session, same load",
  },
  {
    figure: "replay.replayMs",
    bound: "<",
    target: 2000,
    unit: "ms",
    text: "replay of the 500-turn growth session (every run)",
  },
];

export const directionOfBound = (bound: Target["bound"]): Direction =>
  bound === "≥" ? "higher" : "lower";

export function meets(target: Target, value: number): boolean {
  if (target.bound === "≥") return value >= target.target;
  if (target.bound === "≤") return value <= target.target;
  return value < target.target;
}

/** A target against one results file: its value and whether it is met, or not measured. */
export interface TargetStatus {
  figure: string;
  text: string;
  target: string;
  value: number | null;
  /** value / target: ≥ 1 meets a "≥" target, ≤ 1 (< 1) meets a "≤" ("<") one. */
  ratioToTarget: number | null;
  met: boolean | null;
}

export function targetStatus(target: Target, figures: Figures): TargetStatus {
  const value = figures.get(target.figure);
  return {
    figure: target.figure,
    text: target.text,
    target: `${target.bound} ${target.target.toLocaleString("en-US")} ${target.unit}`,
    value: value ?? null,
    ratioToTarget: value === undefined ? null : Number((value / target.target).toFixed(3)),
    met: value === undefined ? null : meets(target, value),
  };
}

export function targetStatuses(figures: Figures): TargetStatus[] {
  return targets.map((target) => targetStatus(target, figures));
}

/** The statuses as rows for console.table: "not measured" where the figure is absent. */
export function targetRows(statuses: readonly TargetStatus[]): Record<string, string>[] {
  return statuses.map((status) => ({
    figure: status.text,
    target: status.target,
    value: status.value === null ? "not measured" : status.value.toLocaleString("en-US"),
    "ratio to target": status.ratioToTarget === null ? "" : String(status.ratioToTarget),
    met: status.met === null ? "not measured" : status.met ? "yes" : "no",
  }));
}
