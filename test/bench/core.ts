import { performance } from "node:perf_hooks";
import { createOrchestrator, type AgentTemplateInput } from "../../src/orchestration/index.ts";
import { parseAgentTemplate } from "../../src/agents/index.ts";
import { toolCatalogue, toolCatalogueEntries } from "../../src/tools/index.ts";
import { noOrchestrationTemplate, twentyStepTemplate } from "./core-template.ts";
import type { BenchOutcome } from "./support/outcome.ts";
import { thousands } from "./support/stats.ts";

const toolStream = toolCatalogue.map((tool) => tool.name);

/** Decisions per second: one decision is `onToolUsed` followed by `allowedTools`. */
function decisionsPerSecond(
  input: AgentTemplateInput,
  seconds: number,
): { rate: number; decisions: number } {
  const orchestrator = createOrchestrator(
    parseAgentTemplate(input, { tools: toolCatalogueEntries }),
    toolCatalogueEntries,
  );
  let state = orchestrator.initialState();
  let decisions = 0;
  let sink = 0;
  const start = performance.now();
  const deadline = start + seconds * 1000;
  while (performance.now() < deadline) {
    for (let batch = 0; batch < 200; batch++) {
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
      decisions++;
    }
  }
  const elapsed = (performance.now() - start) / 1000;
  if (sink < 0) console.log(sink);
  return { rate: decisions / elapsed, decisions };
}

export interface CoreResult {
  decisionsPerSecond: number;
  baselineDecisionsPerSecond: number;
  ratioToBaseline: number;
  decisions: number;
}

export function runCoreBenchmark(seconds = 3): CoreResult {
  decisionsPerSecond(twentyStepTemplate(), 0.5); // warm-up: JIT and regex caches
  const baseline = decisionsPerSecond(noOrchestrationTemplate(), seconds);
  const measured = decisionsPerSecond(twentyStepTemplate(), seconds);
  return {
    decisionsPerSecond: Math.round(measured.rate),
    baselineDecisionsPerSecond: Math.round(baseline.rate),
    ratioToBaseline: Number((measured.rate / baseline.rate).toFixed(3)),
    decisions: measured.decisions,
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
    ],
  };
}
