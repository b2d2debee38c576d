import { performance } from "node:perf_hooks";
import { GCProfiler, getHeapStatistics } from "node:v8";
import {
  createOrchestrator,
  type AgentTemplateInput,
  type Orchestrator,
} from "../../src/orchestration/index.ts";
import { parseAgentTemplate } from "../../src/agents/index.ts";
import { toolCatalogue, toolCatalogueEntries } from "../../src/tools/index.ts";
import { noOrchestrationTemplate, twentyStepTemplate } from "./core-template.ts";
import type { BenchOutcome } from "./support/outcome.ts";
import { thousands } from "./support/stats.ts";

const toolStream = toolCatalogue.map((tool) => tool.name);

function orchestratorFor(input: AgentTemplateInput): Orchestrator {
  return createOrchestrator(
    parseAgentTemplate(input, { tools: toolCatalogueEntries }),
    toolCatalogueEntries,
  );
}

/**
 * The measured loop: one decision is `onToolUsed` followed by `allowedTools` (and the
 * `allowedTools` that picks the tool), with an `onUserMessage` every 25 decisions. Runs `count`
 * decisions from decision number `from` on; returns the state reached and a sink the caller must
 * use, so nothing can be optimised away.
 */
function decide(
  orchestrator: Orchestrator,
  start: ReturnType<Orchestrator["initialState"]>,
  from: number,
  count: number,
): { state: typeof start; sink: number } {
  let state = start;
  let sink = 0;
  for (let decisions = from; decisions < from + count; decisions++) {
    if (decisions % 25 === 0)
      state = orchestrator.onUserMessage(
        state,
        `please mode${decisions % 19} topic${decisions % 19}`,
      ).state;
    const allowed = orchestrator.allowedTools(state);
    // Follow the orchestration like a compliant model: call an offered tool when there is one.
    const name =
      allowed[decisions % Math.max(1, allowed.length)] ??
      toolStream[decisions % toolStream.length] ??
      "think";
    state = orchestrator.onToolUsed(state, name).state;
    sink += orchestrator.allowedTools(state).length;
  }
  return { state, sink };
}

/**
 * Decisions per second over `seconds`, in batches of 200 between clock reads: per second of wall
 * time, and per second of this process's CPU time, which other processes' load does not change.
 */
function decisionsPerSecond(
  input: AgentTemplateInput,
  seconds: number,
): { rate: number; cpuRate: number; decisions: number } {
  const orchestrator = orchestratorFor(input);
  let state = orchestrator.initialState();
  let decisions = 0;
  let sink = 0;
  const cpuStart = process.cpuUsage();
  const start = performance.now();
  const deadline = start + seconds * 1000;
  while (performance.now() < deadline) {
    const batch = decide(orchestrator, state, decisions, 200);
    state = batch.state;
    sink += batch.sink;
    decisions += 200;
  }
  const elapsed = (performance.now() - start) / 1000;
  const cpu = process.cpuUsage(cpuStart);
  if (sink < 0) console.log(sink);
  return {
    rate: decisions / elapsed,
    cpuRate: decisions / ((cpu.user + cpu.system) / 1e6),
    decisions,
  };
}

/**
 * Bytes allocated per decision, which the load on the machine does not change: the heap's growth
 * over `count` decisions plus what every garbage collection in between freed (V8's GC profiler
 * reports the heap before and after each).
 */
function bytesAllocatedPerDecision(input: AgentTemplateInput, count = 200_000): number {
  const orchestrator = orchestratorFor(input);
  // Warm: caches filled and code optimised, as in a long-running worker.
  const warm = decide(orchestrator, orchestrator.initialState(), 0, 20_000);
  const profiler = new GCProfiler();
  profiler.start();
  const before = getHeapStatistics().used_heap_size;
  const run = decide(orchestrator, warm.state, 20_000, count);
  const after = getHeapStatistics().used_heap_size;
  const { statistics } = profiler.stop();
  const freed = statistics.reduce(
    (sum, gc) =>
      sum + gc.beforeGC.heapStatistics.usedHeapSize - gc.afterGC.heapStatistics.usedHeapSize,
    0,
  );
  if (run.sink + warm.sink < 0) console.log(run.sink);
  return Math.max(0, after - before + freed) / count;
}

function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)] ?? 0;
}

export interface CoreResult {
  decisionsPerSecond: number;
  baselineDecisionsPerSecond: number;
  ratioToBaseline: number;
  decisions: number;
  /** Per second of the process's CPU time: what the rates are on an idle machine. */
  decisionsPerCpuSecond: number;
  baselineDecisionsPerCpuSecond: number;
  /** Heap bytes allocated per decision on the 20-step template (see bytesAllocatedPerDecision). */
  bytesAllocatedPerDecision: number;
  baselineBytesAllocatedPerDecision: number;
}

/**
 * The two loops run interleaved, in `rounds` rounds, and each rate is the median of its rounds:
 * on a shared machine a burst of load then hits both, not one.
 */
export function runCoreBenchmark(seconds = 3, rounds = 3): CoreResult {
  decisionsPerSecond(twentyStepTemplate(), 0.5); // warm-up: JIT and regex caches
  const baseline: ReturnType<typeof decisionsPerSecond>[] = [];
  const measured: ReturnType<typeof decisionsPerSecond>[] = [];
  for (let round = 0; round < rounds; round++) {
    baseline.push(decisionsPerSecond(noOrchestrationTemplate(), seconds / rounds));
    measured.push(decisionsPerSecond(twentyStepTemplate(), seconds / rounds));
  }
  const rate = median(measured.map((run) => run.rate));
  const baselineRate = median(baseline.map((run) => run.rate));
  return {
    decisionsPerSecond: Math.round(rate),
    baselineDecisionsPerSecond: Math.round(baselineRate),
    ratioToBaseline: Number((rate / baselineRate).toFixed(3)),
    decisions: measured.reduce((sum, run) => sum + run.decisions, 0),
    decisionsPerCpuSecond: Math.round(median(measured.map((run) => run.cpuRate))),
    baselineDecisionsPerCpuSecond: Math.round(median(baseline.map((run) => run.cpuRate))),
    bytesAllocatedPerDecision: Math.round(bytesAllocatedPerDecision(twentyStepTemplate())),
    baselineBytesAllocatedPerDecision: Math.round(
      bytesAllocatedPerDecision(noOrchestrationTemplate()),
    ),
  };
}

export function coreOutcome(result: CoreResult): BenchOutcome<CoreResult> {
  return {
    result,
    summary: [
      {
        benchmark: "core",
        figure: `${thousands(result.decisionsPerSecond)} orchestrator decisions/s (20-step template)`,
        baseline: `${thousands(result.baselineDecisionsPerSecond)} /s (same loop, agent without orchestration)`,
        ratio: result.ratioToBaseline,
      },
      {
        benchmark: "core",
        figure: `${thousands(result.decisionsPerCpuSecond)} decisions per CPU second (20-step template)`,
        baseline: `${thousands(result.baselineDecisionsPerCpuSecond)} /CPU s (same loop, agent without orchestration)`,
        ratio: Number(
          (result.decisionsPerCpuSecond / result.baselineDecisionsPerCpuSecond).toFixed(3),
        ),
      },
      {
        benchmark: "core",
        figure: `${thousands(result.bytesAllocatedPerDecision)} bytes allocated per decision (20-step template)`,
        baseline: `${thousands(result.baselineBytesAllocatedPerDecision)} bytes (same loop, agent without orchestration)`,
        ratio: Number(
          (
            result.bytesAllocatedPerDecision / Math.max(1, result.baselineBytesAllocatedPerDecision)
          ).toFixed(3),
        ),
      },
    ],
  };
}
