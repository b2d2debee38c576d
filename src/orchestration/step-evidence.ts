import type { CompiledTemplate } from "./compiled-template.ts";
import { conditionHolds, describeCondition } from "./conditions/evaluate-condition.ts";
import type { Evidence } from "./conditions/evidence.ts";
import type { CompletionMark, OrchestrationState } from "./state.ts";
import type { Step } from "./template-schema.ts";
import { ownEntry } from "./own-entries.ts";

/** The completion mark a step's conditions are bounded by, if its sequence has completed. */
export function completionMarkOf(
  state: OrchestrationState,
  step: Step,
): CompletionMark | undefined {
  if (state.activeStep === step.name && state.completedAt !== undefined) {
    return { toolCount: state.completedAt, turn: state.completedAtTurn ?? state.turn };
  }
  return ownEntry(state.pastCompletions, step.name);
}

/**
 * The evidence a step's conditions see (spec §3): everything, or for a step whose sequence has
 * completed only the tool events and user message that arrived after the completion.
 */
export function evidenceFor(state: OrchestrationState, step: Step): Evidence {
  const mark = completionMarkOf(state, step);
  if (mark === undefined) return { tools: state.recentlyUsedTools, message: state.lastUserMessage };
  const newer = Math.max(0, state.toolCount - mark.toolCount);
  const tools = state.recentlyUsedTools;
  return {
    tools: newer === 0 ? [] : tools.slice(Math.max(0, tools.length - newer)),
    message: state.turn > mark.turn ? state.lastUserMessage : undefined,
  };
}

/** The descriptions of the step's conditions when all hold, or undefined when one does not. */
export function heldConditions(state: OrchestrationState, step: Step): string[] | undefined {
  const conditions = step.conditions ?? [];
  const context = { evidence: evidenceFor(state, step), sequence: step.sequence };
  if (!conditions.every((condition) => conditionHolds(condition, context))) return undefined;
  return conditions.map((condition) => describeCondition(condition, step.sequence));
}

/** Steps with at least one condition, all holding, in configuration order (spec §4 rule 2). */
export function candidateSteps(
  compiled: CompiledTemplate,
  state: OrchestrationState,
): { step: Step; conditions: string[] }[] {
  const candidates: { step: Step; conditions: string[] }[] = [];
  for (const step of compiled.steps) {
    if ((step.conditions ?? []).length === 0) continue;
    const conditions = heldConditions(state, step);
    if (conditions !== undefined) candidates.push({ step, conditions });
  }
  return candidates;
}
