import { directionOf, flattenFigures, type Direction, type Figures } from "./figures.ts";
import { directionOfBound, meets, targets, type Target } from "./targets.ts";

export type Verdict =
  "better" | "worse" | "within noise" | "unchanged" | "changed" | "added" | "removed";

/**
 * A move smaller than this, in percent, is not called better or worse: two runs of the same
 * commit on a quiet machine differ by about this much in their wall-clock and CPU figures.
 */
export const NOISE_PERCENT = 2;

/** One figure of two results files, old → new. */
export interface FigureChange {
  figure: string;
  old: number | undefined;
  new: number | undefined;
  /** (new − old) / |old| in percent, one decimal; undefined when either is absent or old is 0. */
  changePercent: number | undefined;
  direction: Direction | undefined;
  /**
   * better/worse by the figure's direction ("within noise" under `NOISE_PERCENT` unless it
   * crosses its target); "changed" when it has no direction.
   */
  verdict: Verdict;
  /** For a target's figure: the target, and whether old and new meet it. */
  target?: { text: string; metBefore: boolean | undefined; metAfter: boolean | undefined };
}

/**
 * Every figure of either file, in the new file's order then the removed ones: what moved, by how
 * much, and whether that is better (by the figure's direction; a target's bound decides for its
 * figure). Pure: the files are read by `readResults`.
 */
export function compareResults(oldResults: unknown, newResults: unknown): FigureChange[] {
  const before = flattenFigures(oldResults);
  const after = flattenFigures(newResults);
  const paths = [...after.keys(), ...[...before.keys()].filter((path) => !after.has(path))];
  const targetOf = new Map(targets.map((target) => [target.figure, target]));
  return paths.map((figure) => change(figure, before, after, targetOf.get(figure)));
}

function change(figure: string, before: Figures, after: Figures, target?: Target): FigureChange {
  const old = before.get(figure);
  const now = after.get(figure);
  const direction = target === undefined ? directionOf(figure) : directionOfBound(target.bound);
  const changePercent =
    old === undefined || now === undefined || old === 0
      ? undefined
      : Math.round(((now - old) / Math.abs(old)) * 1000) / 10;
  let verdict: Verdict;
  if (old === undefined) verdict = "added";
  else if (now === undefined) verdict = "removed";
  else if (now === old) verdict = "unchanged";
  else if (direction === undefined) verdict = "changed";
  else if (
    changePercent !== undefined &&
    Math.abs(changePercent) < NOISE_PERCENT &&
    (target === undefined || meets(target, old) === meets(target, now))
  )
    verdict = "within noise";
  else verdict = now > old === (direction === "higher") ? "better" : "worse";
  return {
    figure,
    old,
    new: now,
    changePercent,
    direction,
    verdict,
    ...(target === undefined
      ? {}
      : {
          target: {
            text: `${target.bound} ${target.target.toLocaleString("en-US")} ${target.unit}`,
            metBefore: old === undefined ? undefined : meets(target, old),
            metAfter: now === undefined ? undefined : meets(target, now),
          },
        }),
  };
}

const shown = (value: number | undefined): string =>
  value === undefined ? "—" : value.toLocaleString("en-US", { maximumFractionDigits: 3 });

const metText = (met: boolean | undefined): string =>
  met === undefined ? "not measured" : met ? "met" : "not met";

/** The changes as console.table rows; `all` false keeps only those that moved. */
export function changeRows(
  changes: readonly FigureChange[],
  options: { all?: boolean } = {},
): Record<string, string>[] {
  return changes
    .filter((entry) => options.all === true || entry.verdict !== "unchanged")
    .map((entry) => ({
      figure: entry.figure,
      old: shown(entry.old),
      new: shown(entry.new),
      "Δ%":
        entry.changePercent === undefined
          ? ""
          : `${entry.changePercent > 0 ? "+" : ""}${entry.changePercent}%`,
      verdict:
        entry.verdict === "better" && entry.target !== undefined
          ? "better (toward target)"
          : entry.verdict === "worse" && entry.target !== undefined
            ? "worse (away from target)"
            : entry.verdict,
      target:
        entry.target === undefined
          ? ""
          : `${entry.target.text}: ${metText(entry.target.metBefore)} → ${metText(entry.target.metAfter)}`,
    }));
}
