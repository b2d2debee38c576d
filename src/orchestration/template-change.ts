import { compileTemplate } from "./compiled-template.ts";
import { withoutCompletion, type OrchestrationState } from "./state.ts";
import type { AgentTemplate } from "./template-schema.ts";

/** A session's state carried into a new template, and what could not be carried as it was. */
export interface CarriedState {
  state: OrchestrationState;
  notes: string[];
}

/**
 * The state a session keeps when it moves to another template (an upgrade between two turns).
 * Everything the session learnt stays (tools used, counts, turns, tokens); what names the old
 * template's steps is checked against the new one: an active step the new template lacks gives
 * way to its default step (or to no step), a sequence position past the step's new sequence
 * restarts it, and completion marks of vanished steps are dropped. Pure: the workflow applies it,
 * and `replay`/`fork` recompute it the same way.
 */
export function carryStateToTemplate(
  state: OrchestrationState,
  template: AgentTemplate,
): CarriedState {
  const compiled = compileTemplate(template);
  const notes: string[] = [];
  const pastCompletions = Object.fromEntries(
    Object.entries(state.pastCompletions).filter(([name]) => compiled.stepsByName.has(name)),
  );
  let next: OrchestrationState = { ...state, pastCompletions };
  const active = state.activeStep;
  if (active === undefined) return { state: next, notes };
  const step = compiled.stepsByName.get(active);
  if (step === undefined) {
    const { activeStep: _gone, ...rest } = withoutCompletion(next);
    const fallback = compiled.defaultStep;
    next = { ...rest, sequenceIndex: 0 };
    if (fallback !== undefined) next = { ...next, activeStep: fallback.name };
    notes.push(
      fallback === undefined
        ? `step "${active}" is not in the new template, and it has no default step: no step is active (every agent tool is allowed)`
        : `step "${active}" is not in the new template: the session is now in its default step "${fallback.name}"`,
    );
    return { state: next, notes };
  }
  const length = step.sequence?.length ?? 0;
  if (next.completedAt === undefined && next.sequenceIndex > 0 && next.sequenceIndex >= length) {
    next = { ...next, sequenceIndex: 0 };
    notes.push(
      length === 0
        ? `step "${active}" has no sequence in the new template: its progress was dropped`
        : `step "${active}" has a shorter sequence in the new template: it restarts at its first position`,
    );
  } else if (next.completedAt !== undefined && next.sequenceIndex !== length) {
    next = { ...next, sequenceIndex: length };
  }
  return { state: next, notes };
}
