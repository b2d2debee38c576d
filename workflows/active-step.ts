import type { AgentTemplate, OrchestrationState, Step } from "../src/orchestration/index.ts";

/**
 * The template step the orchestration state names as active, if any: the one lookup every
 * use-site (the session view, the model's instructions, the Web UI's details) goes through.
 */
export function activeStepOf(template: AgentTemplate, state: OrchestrationState): Step | undefined {
  if (state.activeStep === undefined) return undefined;
  return template.orchestration.steps.find((candidate) => candidate.name === state.activeStep);
}
