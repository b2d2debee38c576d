import type { CompiledStep, CompiledTemplate } from "./compiled-template.ts";
import type { OrchestrationState } from "./state.ts";
import { ownEntry } from "./own-entries.ts";
import type { Step } from "./template-schema.ts";

/**
 * Whether all the step's conditions hold on the evidence it may see (spec §3), read in place: the
 * step's window of recent tools starts at `from` instead of being sliced, and its completion mark
 * is read field by field instead of built, so checking every step on every tool event allocates
 * nothing. Same arithmetic as `evidenceFor` (step-evidence.ts), which stays the general path.
 */
function conditionsHold(entry: CompiledStep, state: OrchestrationState): boolean {
  const tools = state.recentlyUsedTools;
  let from = 0;
  let message = state.lastUserMessage;
  const monotone = entry.monotoneChecks;
  for (let index = 0; index < monotone.length; index++) {
    if (monotone[index]?.(tools, 0, message) !== true) return false;
  }
  let marked = false;
  let markToolCount = 0;
  let markTurn = 0;
  if (state.activeStep === entry.step.name && state.completedAt !== undefined) {
    marked = true;
    markToolCount = state.completedAt;
    markTurn = state.completedAtTurn ?? state.turn;
  } else {
    const mark = ownEntry(state.pastCompletions, entry.step.name);
    if (mark !== undefined) {
      marked = true;
      markToolCount = mark.toolCount;
      markTurn = mark.turn;
    }
  }
  if (marked) {
    const newer = Math.max(0, state.toolCount - markToolCount);
    // `|| 0`: a NaN start reads everything, as `slice(NaN)` does on the general path.
    from = newer === 0 ? tools.length : Math.max(0, tools.length - newer) || 0;
    if (!(state.turn > markTurn)) message = undefined;
  }
  const checks = entry.checks;
  for (let index = 0; index < checks.length; index++) {
    if (checks[index]?.(tools, from, message) !== true) return false;
  }
  return true;
}

/**
 * Spec §4 rule 2 without building the candidate list: the active step when it is a candidate
 * (it stays), otherwise the first candidate in configuration order, otherwise undefined. Only for
 * decisions where no tool is withheld, so no candidate can be blocked.
 */
export function decidingCandidate(
  compiled: CompiledTemplate,
  state: OrchestrationState,
  active: Step | undefined,
): CompiledStep | undefined {
  // The active step first: when it holds it stays, whatever holds before it (conditions are pure
  // and, with every pattern valid, cannot throw, so the order they are checked in is free).
  const activeEntry =
    state.activeStep === undefined ? undefined : compiled.compiledSteps.get(state.activeStep);
  if (
    activeEntry !== undefined &&
    activeEntry.step === active &&
    activeEntry.checks.length > 0 &&
    conditionsHold(activeEntry, state)
  )
    return activeEntry;
  const steps = compiled.conditionalSteps;
  for (let index = 0; index < steps.length; index++) {
    const entry = steps[index] as CompiledStep;
    if (entry !== activeEntry && conditionsHold(entry, state)) return entry;
  }
  return undefined;
}
