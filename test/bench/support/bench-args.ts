/** What `npm run bench -- …` asks for. */
export type BenchArgs =
  | { kind: "help" }
  | { kind: "error"; message: string }
  /** Run `names` (all when empty); then compare the results with `compareWith` if given. */
  | { kind: "run"; names: string[]; compareWith?: string; all: boolean }
  /** Compare two saved results files; nothing runs. */
  | { kind: "compare-files"; old: string; new: string; all: boolean };

/**
 * `[<name>...] [--compare <old.json> [<new.json>]] [--all]`: the argument after `--compare` is
 * the old file; one more that is not a benchmark name is the new file, and then nothing runs.
 */
export function parseBenchArgs(args: readonly string[], names: readonly string[]): BenchArgs {
  if (args.includes("--help") || args.includes("-h")) return { kind: "help" };
  const run: string[] = [];
  const files: string[] = [];
  let compare = false;
  let all = false;
  for (let index = 0; index < args.length; index++) {
    const arg = args[index] ?? "";
    if (arg === "--all") all = true;
    else if (arg === "--compare") {
      if (compare) return { kind: "error", message: "--compare given twice" };
      compare = true;
      const old = args[index + 1];
      if (old === undefined || old.startsWith("--"))
        return {
          kind: "error",
          message:
            "--compare needs the old results file: --compare <old.json> (e.g. one saved with `git show HEAD:bench/results.json > old.json`)",
        };
      files.push(old);
      index++;
    } else if (arg.startsWith("-")) return { kind: "error", message: `unknown option: ${arg}` };
    else if (names.includes(arg)) run.push(arg);
    else if (compare && files.length === 1) files.push(arg);
    else
      return {
        kind: "error",
        message: compare
          ? `unknown benchmark: ${arg} (--compare takes at most two files: <old.json> <new.json>)`
          : `unknown benchmark: ${arg}`,
      };
  }
  if (all && !compare) return { kind: "error", message: "--all only goes with --compare" };
  const [old, current] = files;
  if (current !== undefined) {
    if (run.length > 0)
      return {
        kind: "error",
        message: `--compare ${old} ${current} compares two saved files and runs nothing: leave out ${run.join(", ")}, or give only the old file to compare a fresh run with it`,
      };
    return { kind: "compare-files", old: old ?? "", new: current, all };
  }
  return { kind: "run", names: run, all, ...(old === undefined ? {} : { compareWith: old }) };
}
