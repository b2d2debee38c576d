import type { CompiledTemplate } from "./compiled-template.ts";
import { isMessageCondition } from "./condition-schema.ts";
import type { OrchestrationEvent, StepEntryReason } from "./events.ts";
import type { NewEvent } from "./reset-triggers.ts";
import { decidingCandidate } from "./step-candidates.ts";
import { candidateSteps } from "./step-evidence.ts";
import { entryBlock, someToolWithheld } from "./tool-availability.ts";
import { completionsWithout, copyWithoutCompletion, type OrchestrationState } from "./state.ts";
import type { Step } from "./template-schema.ts";
import { activeStepOf } from "./tool-policy.ts";
import { setOwnEntry } from "./own-entries.ts";

export interface Decision {
  state: OrchestrationState;
  events: OrchestrationEvent[];
}

/**
 * The events of a decision where nothing happened, shared (frozen) rather than allocated: the
 * common case on the decision path. Callers only read events.
 */
export const noEvents = Object.freeze([]) as unknown as OrchestrationEvent[];

/** Marks the active step's sequence complete at the current event. */
export function completeSequence(state: OrchestrationState, step: Step): OrchestrationState {
  return completeSequenceInPlace({ ...state }, step);
}

/**
 * `completeSequence` on a state this decision made itself and has not returned yet: the fields are
 * set on it rather than on one more copy. Same keys in the same order as the spread
 * `{ ...state, sequenceIndex, completedAt, completedAtTurn }`: a key the state has keeps its place,
 * a new one goes last.
 */
function completeSequenceInPlace(own: OrchestrationState, step: Step): OrchestrationState {
  own.sequenceIndex = step.sequence?.length ?? 0;
  own.completedAt = own.toolCount;
  own.completedAtTurn = own.turn;
  return own;
}

/**
 * Enters a step (spec §4 rule 4): the index restarts at 0, except that the tool event that
 * activated it counts as the first position when accepted there, and a step activated by
 * `sequence_match` starts complete. A completed step being left keeps its completion mark.
 */
export function enterStep(
  state: OrchestrationState,
  step: Step,
  reason: StepEntryReason,
  conditions: string[],
  event: NewEvent | undefined,
): Decision {
  const leavingCompleted =
    state.activeStep !== undefined &&
    state.completedAt !== undefined &&
    state.activeStep !== step.name;
  // Unchanged marks are shared with the state before, as a spread shares every nested object:
  // no decision changes a state's marks once it has returned the state.
  let pastCompletions = state.pastCompletions;
  if (leavingCompleted || Object.hasOwn(pastCompletions, step.name)) {
    pastCompletions = completionsWithout(pastCompletions, step.name);
    if (leavingCompleted)
      setOwnEntry(pastCompletions, state.activeStep as string, {
        toolCount: state.completedAt as number,
        turn: state.completedAtTurn ?? state.turn,
      });
  }
  // One copy, then fields set on it: the keys and their order of
  // `{ ...withoutCompletion(state), activeStep, sequenceIndex: 0, pastCompletions }`.
  const next = copyWithoutCompletion(state);
  next.activeStep = step.name;
  next.sequenceIndex = 0;
  next.pastCompletions = pastCompletions;
  const from = state.activeStep;
  const events: OrchestrationEvent[] = [
    from === undefined
      ? { type: "step_entered", step: step.name, reason, conditions }
      : { type: "step_entered", step: step.name, from, reason, conditions },
  ];
  const sequence = step.sequence;
  if (sequence === undefined) return { state: next, events };
  const bySequenceMatch =
    reason === "conditions" && (step.conditions ?? []).some((c) => c.type === "sequence_match");
  if (bySequenceMatch) {
    completeSequenceInPlace(next, step);
    events.push({ type: "sequence_completed", step: step.name });
  } else if (
    reason === "conditions" &&
    event?.kind === "tool" &&
    sequence[0]?.includes(event.tool) === true
  ) {
    advanceInPlace(next, step, event.tool, events);
  }
  return { state: next, events };
}

/**
 * Moves the active sequence one position forward with the accepted tool, on a state this decision
 * made itself and has not returned yet (see `completeSequenceInPlace`): no caller can hold it, so
 * it is changed rather than copied again.
 */
export function advanceInPlace(
  own: OrchestrationState,
  step: Step,
  tool: string,
  events: OrchestrationEvent[],
): OrchestrationState {
  const length = step.sequence?.length ?? 0;
  const index = own.sequenceIndex + 1;
  events.push({
    type: "sequence_advanced",
    step: step.name,
    tool,
    position: index,
    length,
    next: step.sequence?.[index] ?? [],
  });
  if (index < length) {
    own.sequenceIndex = index;
    return own;
  }
  events.push({ type: "sequence_completed", step: step.name, tool });
  return completeSequenceInPlace(own, step);
}

/**
 * Whether a skip is worth an event: always on a user message; on a tool event only for a step
 * with a tool condition (its message conditions were already reported at the turn's start).
 */
function explainsSkip(step: Step, event: NewEvent): boolean {
  return (
    event.kind === "user_message" ||
    (step.conditions ?? []).some((condition) => !isMessageCondition(condition.type))
  );
}

/**
 * Spec §4 rules 2 and 3: the active step stays while it is a candidate; otherwise the first
 * candidate wins; with none, the active step stays unless its completed sequence's `onComplete`
 * says otherwise; with no active step, the default step. A candidate (or `onComplete` target)
 * that needs a tool that cannot run now is skipped with a `step_skipped` event; the default step
 * is the fallback and is always entered.
 */
export function selectStep(
  compiled: CompiledTemplate,
  state: OrchestrationState,
  event: NewEvent,
): Decision {
  if (!compiled.regexesValid || someToolWithheld(compiled, state))
    return selectStepWithBlocks(compiled, state, event);
  const active = activeStepOf(compiled, state);
  const candidate = decidingCandidate(compiled, state, active);
  if (candidate !== undefined) {
    if (active !== undefined && candidate.step === active) return { state, events: noEvents };
    return enterStep(state, candidate.step, "conditions", [...candidate.described], event);
  }
  if (active === undefined) {
    return compiled.defaultStep === undefined
      ? { state, events: noEvents }
      : enterStep(state, compiled.defaultStep, "default", [], event);
  }
  const target = onCompleteTarget(compiled, state, active);
  if (target === undefined) return { state, events: noEvents };
  return enterStep(state, target, "on_complete", [], event);
}

/**
 * `selectStep` when some tool cannot run now (or a pattern does not compile): every candidate is
 * evaluated, and one that needs a withheld tool is skipped with an event.
 */
function selectStepWithBlocks(
  compiled: CompiledTemplate,
  state: OrchestrationState,
  event: NewEvent,
): Decision {
  const active = activeStepOf(compiled, state);
  const events: OrchestrationEvent[] = [];
  const candidates = candidateSteps(compiled, state).filter(({ step }) => {
    if (step === active || step === compiled.defaultStep) return true;
    const block = entryBlock(compiled, state, step);
    if (block === undefined) return true;
    if (explainsSkip(step, event))
      events.push({
        type: "step_skipped",
        step: step.name,
        tool: block.tool,
        reason: block.reason,
      });
    return false;
  });
  const withSkips = (decision: Decision): Decision => ({
    state: decision.state,
    events: [...events, ...decision.events],
  });
  if (active !== undefined && candidates.some((candidate) => candidate.step === active)) {
    return { state, events };
  }
  const first = candidates[0];
  if (first !== undefined)
    return withSkips(enterStep(state, first.step, "conditions", first.conditions, event));
  if (active === undefined) {
    return compiled.defaultStep === undefined
      ? { state, events }
      : withSkips(enterStep(state, compiled.defaultStep, "default", [], event));
  }
  let target = onCompleteTarget(compiled, state, active);
  if (target === undefined) return { state, events };
  const block = target === compiled.defaultStep ? undefined : entryBlock(compiled, state, target);
  if (block !== undefined) {
    events.push({
      type: "step_skipped",
      step: target.name,
      tool: block.tool,
      reason: block.reason,
    });
    target = compiled.defaultStep;
    if (target === undefined || target === active) return { state, events };
    return withSkips(enterStep(state, target, "default", [], event));
  }
  return withSkips(enterStep(state, target, "on_complete", [], event));
}

function onCompleteTarget(
  compiled: CompiledTemplate,
  state: OrchestrationState,
  active: Step,
): Step | undefined {
  if (state.completedAt === undefined) return undefined;
  const rule = active.onComplete ?? "stay";
  if (rule === "stay") return undefined;
  if (rule === "default") return compiled.defaultStep;
  return compiled.stepsByName.get(rule);
}
