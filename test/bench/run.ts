import { mkdirSync, readFileSync, writeFileSync, existsSync } from "node:fs";
import { arch, cpus, platform } from "node:os";
import { runCoreBenchmark } from "./core.ts";

const resultsFile = "bench/results.json";
const usage = `usage: npm run bench [-- <name>...]

Benchmarks (not tests): each prints its figures and a ratio against a baseline measured in the
same run, and the results are merged into ${resultsFile}.

  core   orchestrator decisions per second (onToolUsed + allowedTools) on a 20-step template,
         against the same loop on an agent without orchestration`;

const benchmarks = { core: () => runCoreBenchmark() } as const;
type Name = keyof typeof benchmarks;

const args = process.argv.slice(2);
if (args.includes("--help") || args.includes("-h")) {
  console.log(usage);
  process.exit(0);
}
const unknown = args.filter((name) => !(name in benchmarks));
if (unknown.length > 0) {
  console.error(`unknown benchmark: ${unknown.join(", ")}\n\n${usage}`);
  process.exit(2);
}
const selected = (args.length > 0 ? args : Object.keys(benchmarks)) as Name[];

const previous = existsSync(resultsFile)
  ? (JSON.parse(readFileSync(resultsFile, "utf8")) as Record<string, unknown>)
  : {};
const results: Record<string, unknown> = { ...previous };
for (const name of selected) {
  console.log(`▶ ${name}…`);
  const result = benchmarks[name]();
  results[name] = { ...result, measuredAt: new Date().toISOString() };
  console.table(result);
}
results.machine = {
  node: process.version,
  platform: platform(),
  arch: arch(),
  cpus: cpus().length,
  cpu: cpus()[0]?.model ?? "unknown",
};
mkdirSync("bench", { recursive: true });
writeFileSync(resultsFile, `${JSON.stringify(results, null, 2)}\n`);
console.log(`wrote ${resultsFile}`);
