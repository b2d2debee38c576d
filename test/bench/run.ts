import { execFileSync } from "node:child_process";
import { existsSync, mkdirSync, writeFileSync } from "node:fs";
import { arch, cpus, platform, totalmem } from "node:os";
import { DefaultLogger, Runtime } from "@temporalio/worker";
import { clusterSettingsHelp, runClusterBenchmark } from "./cluster.ts";
import { coreOutcome, runCoreBenchmark } from "./core.ts";
import { runGrowthBenchmark } from "./growth.ts";
import { runReplayBenchmark } from "./replay.ts";
import { runScaleBenchmark } from "./scale.ts";
import { BenchContext } from "./support/bench-context.ts";
import { parseBenchArgs } from "./support/bench-args.ts";
import { parseBenchSettings, settingsHelp } from "./support/bench-settings.ts";
import { changeRows, compareResults } from "./support/compare.ts";
import { readResults, ResultsFileError } from "./support/results-file.ts";
import { flattenFigures } from "./support/figures.ts";
import type { BenchOutcome, SummaryRow } from "./support/outcome.ts";
import { printResult } from "./support/print-result.ts";
import { runRegexBenchmark } from "./regex.ts";
import { targetRows, targetStatuses } from "./support/targets.ts";
import { runTurnBenchmark } from "./turn.ts";

const resultsFile = "bench/results.json";
const usage = `usage: npm run bench [-- <name>...] [--compare <old.json> [<new.json>]] [--all]

Benchmarks (not tests): each prints its figures and a ratio against a baseline measured in the
same run, and the results are merged into ${resultsFile}. All run by default; name some to run
only those. Everything but core and regex runs on a real Temporal dev server started for the run.

  core    orchestrator decisions per second (onToolUsed + allowedTools) on a 20-step template,
          against the same loop on an agent without orchestration
  turn    one evaluation turn (4 model calls, 3 tools) run durably, against the AI SDK alone in
          process and against the floor: a bare workflow running as many no-op activities per
          update-with-start turn; both sides again with a 100 ms model; history events and bytes,
          worker and dev-server CPU per turn
  growth  one session driven for BENCH_GROWTH_TURNS short turns (500): history bytes added per
          turn around turns 10, 100 and 500, and when it continued as new
  scale   BENCH_SCALE_SESSIONS concurrent sessions (10,100,1000), BENCH_SCALE_TURNS turns each (3),
          through one worker process: turns/s, p95 turn latency, worker peak RSS, against the same
          turns in process without Temporal
  replay  replaying every run of the growth session, against replaying a 1-turn session
  regex   the slowest message_regex decisions found (the issue's patterns and patterns that fill
          the instruction budget) on the longest message, against a message_contains decision
  cluster turns/s on the cluster npm run cluster starts (PostgreSQL, the Temporal server built from
          its Go module), BENCH_CLUSTER_SESSIONS concurrent sessions with one, then two worker
          processes; CPU per turn of the server, PostgreSQL and the workers

At the end the targets of issue 14 are shown against ${resultsFile} (met, not met, or not
measured) and written into it as "targets".

  --compare <old.json>             after the run, each figure's change from old.json to the new
                                   results: old → new, Δ%, better or worse, and for a target's
                                   figure whether it meets it before and after. old.json is read
                                   before the run, so ${resultsFile} itself compares against the
                                   committed figures.
  --compare <old.json> <new.json>  the same for two saved files; nothing runs
  --all                            with --compare: also the figures that did not change

${settingsHelp}
${clusterSettingsHelp}`;

/** The commit measured, and whether code beside the benchmarks had changes on top of it. */
function codeVersion(): { commit: string; uncommittedChanges: boolean } | undefined {
  try {
    const git = (...args: string[]) => execFileSync("git", args, { encoding: "utf8" }).trim();
    const outsideBench = [".", ":(exclude)test/bench", ":(exclude)bench"];
    return {
      commit: git("rev-parse", "HEAD"),
      uncommittedChanges: git("status", "--porcelain", "--", ...outsideBench) !== "",
    };
  } catch {
    return undefined;
  }
}

type Benchmark = (context: BenchContext) => Promise<BenchOutcome<object>>;
const benchmarks = {
  core: () => Promise.resolve(coreOutcome(runCoreBenchmark())),
  turn: runTurnBenchmark,
  growth: runGrowthBenchmark,
  scale: runScaleBenchmark,
  replay: runReplayBenchmark,
  regex: () => Promise.resolve(runRegexBenchmark()),
  cluster: runClusterBenchmark,
} satisfies Record<string, Benchmark>;
type Name = keyof typeof benchmarks;

/** Prints each figure's change from `old` to `current` (see support/compare.ts). */
function printComparison(
  oldName: string,
  newName: string,
  old: unknown,
  current: unknown,
  all: boolean,
): void {
  const rows = changeRows(compareResults(old, current), { all });
  console.log(
    `\nChanges from ${oldName} to ${newName}${all ? "" : " (unchanged figures left out; --all shows them)"}`,
  );
  if (rows.length === 0) console.log("  no figure changed");
  else console.table(rows);
}

function readOrExit(file: string): Record<string, unknown> {
  try {
    return readResults(file);
  } catch (error) {
    if (!(error instanceof ResultsFileError)) throw error;
    console.error(`bench --compare: ${error.message}`);
    process.exit(2);
  }
}

/**
 * The results file this run merges into, read before anything runs: a broken one is refused with
 * its name and the fix rather than a bare parser error (or, worse, after minutes of benchmarks).
 */
function previousResults(): Record<string, unknown> {
  if (!existsSync(resultsFile)) return {};
  try {
    return readResults(resultsFile, { requireFigures: false });
  } catch (error) {
    if (!(error instanceof ResultsFileError)) throw error;
    console.error(
      `bench: ${error.message}\nThe run merges its figures into ${resultsFile}: restore it (git checkout ${resultsFile}) or delete it to start a new one.`,
    );
    process.exit(2);
  }
}

const args = parseBenchArgs(process.argv.slice(2), Object.keys(benchmarks));
if (args.kind === "help") {
  console.log(usage);
  process.exit(0);
}
if (args.kind === "error") {
  console.error(`bench: ${args.message}\n\n${usage}`);
  process.exit(2);
}
if (args.kind === "compare-files") {
  printComparison(args.old, args.new, readOrExit(args.old), readOrExit(args.new), args.all);
  process.exit(0);
}
// Read before the run: the old file may be the results file the run rewrites.
const compareWith = args.compareWith === undefined ? undefined : readOrExit(args.compareWith);
const parsed = parseBenchSettings(process.env);
if ("error" in parsed) {
  console.error(`bench: ${parsed.error}\n\n${usage}`);
  process.exit(2);
}
const { settings } = parsed;
// Workers log every state change at INFO; the benchmarks' own lines are the progress to read.
Runtime.install({ logger: new DefaultLogger("WARN") });
const selected = (args.names.length > 0 ? args.names : Object.keys(benchmarks)) as Name[];

const results: Record<string, unknown> = { ...previousResults() };
const code = codeVersion();
const summary: SummaryRow[] = [];
const context = new BenchContext(settings);
try {
  for (const name of selected) {
    console.log(`▶ ${name}…`);
    const started = performance.now();
    const outcome = await benchmarks[name](context);
    results[name] = { ...outcome.result, measuredAt: new Date().toISOString() };
    printResult(outcome.result);
    console.log(`  ${name} took ${Math.round((performance.now() - started) / 1000)} s`);
    summary.push(...outcome.summary);
  }
} finally {
  await context.close();
}
results.machine = {
  node: process.version,
  platform: platform(),
  arch: arch(),
  cpus: cpus().length,
  cpu: cpus()[0]?.model ?? "unknown",
  memoryGiB: Math.round(totalmem() / 2 ** 30),
};
results.code = code;
results.measuredAt = new Date().toISOString();
// Against the whole file: figures of benchmarks this run left alone count as last measured.
const statuses = targetStatuses(flattenFigures(results));
results.targets = statuses;
mkdirSync("bench", { recursive: true });
writeFileSync(resultsFile, `${JSON.stringify(results, null, 2)}\n`);
console.log("\nSummary");
console.table(summary);
console.log(`\nTargets (issue 14), against ${resultsFile}`);
console.table(targetRows(statuses));
if (compareWith !== undefined && args.compareWith !== undefined)
  printComparison(args.compareWith, resultsFile, compareWith, results, args.all);
console.log(`wrote ${resultsFile}`);
