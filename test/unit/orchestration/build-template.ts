import {
  createOrchestrator,
  type AgentTemplateInput,
  type OrchestrationState,
  type Orchestrator,
} from "../../../src/orchestration/index.ts";
import { parseAgentTemplate } from "../../../src/agents/index.ts";
import { toolCatalogueEntries } from "../../../src/tools/index.ts";

type OrchestrationInput = NonNullable<AgentTemplateInput["orchestration"]>;

export const allTools = [
  "think",
  "reflect",
  "critique",
  "debate",
  "brainstorm",
  "compare",
  "summarize",
  "search",
];

/** An orchestrator for literal steps over every shipped tool, parsed through the real loader. */
export function orchestratorFor(
  orchestration: OrchestrationInput,
  tools: string[] = allTools,
): Orchestrator {
  const template = parseAgentTemplate(
    { id: "test", name: "Test", tools, orchestration },
    { tools: toolCatalogueEntries },
  );
  return createOrchestrator(template, toolCatalogueEntries);
}

export type Step = { message: string } | { tool: string };

/** Feeds user messages and tool events in order; returns the final state. */
export function run(
  orchestrator: Orchestrator,
  steps: Step[],
  from?: OrchestrationState,
): OrchestrationState {
  let state = from ?? orchestrator.initialState();
  for (const step of steps) {
    state = (
      "message" in step
        ? orchestrator.onUserMessage(state, step.message)
        : orchestrator.onToolUsed(state, step.tool)
    ).state;
  }
  return state;
}

export const msg = (message: string): Step => ({ message });
export const tool = (name: string): Step => ({ tool: name });
