/**
 * Every numeric figure of a bench/results.json, flattened to paths: `turn.durableMedianMs`,
 * `scale.points[sessions=1000].p95TurnMs`. A list of records is keyed by the field that names
 * its rows (sessions, workers, turn, name) when that field tells them apart, so a point keeps its
 * path when the list grows; by position otherwise (`replay.runReplays[0].replayMs`).
 */
export type Figures = Map<string, number>;

/** Entries that describe the run rather than measure it. */
const notFigures = new Set(["measuredAt", "machine", "code", "targets"]);
const rowKeys = ["sessions", "workers", "turn", "name"];

export function flattenFigures(results: unknown): Figures {
  const figures: Figures = new Map();
  visit(results, "", figures);
  return figures;
}

function visit(value: unknown, path: string, figures: Figures): void {
  if (typeof value === "number") {
    if (Number.isFinite(value) && path !== "") figures.set(path, value);
    return;
  }
  if (Array.isArray(value)) {
    const key = rowKey(value);
    value.forEach((item, index) => {
      const label =
        key === undefined
          ? String(index)
          : `${key}=${String((item as Record<string, unknown>)[key])}`;
      visit(item, `${path}[${label}]`, figures);
    });
    return;
  }
  if (typeof value === "object" && value !== null) {
    for (const [name, child] of Object.entries(value)) {
      if (notFigures.has(name)) continue;
      visit(child, path === "" ? name : `${path}.${name}`, figures);
    }
  }
}

/** The field that names every row of a list of records, each differently; none otherwise. */
function rowKey(list: readonly unknown[]): string | undefined {
  if (list.length === 0 || !list.every((item) => typeof item === "object" && item !== null))
    return undefined;
  const rows = list as Record<string, unknown>[];
  return rowKeys.find((key) => {
    const values = rows.map((row) => row[key]);
    const named = values.every((value) => typeof value === "number" || typeof value === "string");
    return named && new Set(values).size === values.length;
  });
}

export type Direction = "higher" | "lower";

/**
 * Which way each known figure is better, tried in order on its path without row labels. "none":
 * a baseline (what ours is measured against), a setting or a size of the work, whose change is
 * shown but not judged; a figure no rule matches is not judged either.
 */
const directionRules: [RegExp, Direction | "none"][] = [
  // Baselines and floors measure the yardstick, not us.
  [/\.(baseline|floor|inProcess)[A-Za-z0-9]*$/, "none"],
  [/^(turn\.turnActivityTypes|scale\.workerTuning)\.|\.workerOptions\./, "none"],
  [
    /\.(iterations|turns|turn|turnsPerSession|sessions|workers|decisions|runs|patterns|messageChars|instructionBudget|historyShards|conversationBytesPerTurn|continuedAsNewAfterTurns|clusterCores|machineBusyCores)$/,
    "none",
  ],
  // Ours against a baseline where ours is a rate: higher is better.
  [/^core\.ratioToBaseline$/, "higher"],
  [/(PerSecond|throughputRatio)$/, "higher"],
  // Times, CPU, memory, history, retries, and ours over a baseline otherwise: lower is better.
  [
    /(Ms|MsPerTurn|MiB|PerCachedSession|Bytes|BytesPerTurn|Events|EventsPerTurn|PerConversationByte|Retried)$/,
    "lower",
  ],
  [/\.(events|bytes)$/, "lower"],
  [/(Events|Bytes)FirstTurn$/, "lower"],
  [/[wW]orkflowTasksPerTurn$/, "lower"],
  [/(ratio|Ratio)[A-Za-z0-9]*$/, "lower"],
];

export function directionOf(path: string): Direction | undefined {
  const unlabelled = path.replace(/\[[^\]]*\]/g, "");
  for (const [pattern, direction] of directionRules) {
    if (pattern.test(unlabelled)) return direction === "none" ? undefined : direction;
  }
  return undefined;
}
