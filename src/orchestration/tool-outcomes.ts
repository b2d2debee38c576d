import type { CompiledTemplate } from "./compiled-template.ts";
import type { OrchestrationEvent } from "./events.ts";
import { completeSequence, enterStep, type Decision } from "./step-selection.ts";
import { withoutCompletion, type OrchestrationState, type ToolFailure } from "./state.ts";
import { sequenceBlock, type Block } from "./tool-availability.ts";
import { activeStepOf } from "./tool-policy.ts";
import type { Step } from "./template-schema.ts";
import { ownEntry, setOwnEntry } from "./own-entries.ts";

/** Errors are kept in state and events: bounded, one line. */
const ERROR_LIMIT = 300;

function oneLine(text: string): string {
  const line = text.replace(/\s+/g, " ").trim();
  return line.length <= ERROR_LIMIT ? line : `${line.slice(0, ERROR_LIMIT - 1)}…`;
}

/**
 * Gives up the active step's sequence, which cannot go on: control goes to the default step; with
 * no default, to no step (every available agent tool); the default step itself has its sequence
 * marked complete, so it no longer holds control (it restarts on the next user message).
 */
function release(
  compiled: CompiledTemplate,
  state: OrchestrationState,
  step: Step,
  released: { tool: string; cause: "failed" | "unavailable"; failures: number; error: string },
): Decision {
  const target = compiled.defaultStep;
  const to = target === undefined || target === step ? undefined : target.name;
  const event: OrchestrationEvent = {
    type: "sequence_released",
    step: step.name,
    ...released,
    ...(to === undefined ? {} : { to }),
  };
  if (target === step) return { state: completeSequence(state, step), events: [event] };
  if (target === undefined) {
    const { activeStep: _step, ...rest } = withoutCompletion(state);
    return { state: { ...rest, sequenceIndex: 0 }, events: [event] };
  }
  const entered = enterStep(state, target, "released", [], undefined);
  return { state: entered.state, events: [event, ...entered.events] };
}

/** The active step's in-progress sequence's first position that cannot run now, if any. */
function activeBlock(
  compiled: CompiledTemplate,
  state: OrchestrationState,
): { step: Step; block: Block } | undefined {
  const step = activeStepOf(compiled, state);
  if (step?.sequence === undefined || state.completedAt !== undefined) return undefined;
  const block = sequenceBlock(compiled, state, step, state.sequenceIndex);
  return block === undefined ? undefined : { step, block };
}

/**
 * The worker's report of the agent tools it cannot run (tool name → reason), taken at a turn's
 * start. Changes are events; an active sequence that can no longer complete is released.
 */
export function onToolAvailability(
  compiled: CompiledTemplate,
  state: OrchestrationState,
  unavailable: Readonly<Record<string, string>>,
): Decision {
  const before = state.unavailableTools ?? {};
  const now: Record<string, string> = {};
  const events: OrchestrationEvent[] = [];
  for (const { name } of compiled.agentTools) {
    const reason = ownEntry(unavailable, name);
    if (reason !== undefined) {
      setOwnEntry(now, name, reason);
      if (ownEntry(before, name) !== reason)
        events.push({ type: "tool_unavailable", tool: name, reason });
    } else if (ownEntry(before, name) !== undefined) {
      events.push({ type: "tool_available", tool: name });
    }
  }
  const { unavailableTools: _old, ...rest } = state;
  let next: OrchestrationState =
    Object.keys(now).length === 0 ? rest : { ...rest, unavailableTools: now };
  // Only unavailability releases here: failures are judged when they happen (onToolFailed).
  const { toolFailures: _failures, ...withoutFailures } = next;
  const blocked = activeBlock(compiled, withoutFailures);
  if (blocked === undefined) return { state: next, events };
  const decision = release(compiled, next, blocked.step, {
    tool: blocked.block.tool,
    cause: "unavailable",
    failures: 0,
    error: blocked.block.reason,
  });
  next = decision.state;
  return { state: next, events: [...events, ...decision.events] };
}

/**
 * A tool the orchestrator allowed ran and failed. Its consecutive-failure count goes up; once the
 * count reaches `releaseAfterFailures` the tool is withheld for the rest of the turn, and a
 * sequence whose next position has no other alternative left is released to the default step.
 */
export function onToolFailed(
  compiled: CompiledTemplate,
  state: OrchestrationState,
  toolName: string,
  error: string,
): Decision {
  const previous = ownEntry(state.toolFailures, toolName);
  const failure: ToolFailure = {
    count: (previous?.count ?? 0) + 1,
    error: oneLine(error),
    turn: state.turn,
  };
  const next: OrchestrationState = {
    ...state,
    toolFailures: { ...state.toolFailures, [toolName]: failure },
  };
  const blocked = activeBlock(compiled, next);
  if (blocked === undefined || blocked.block.position !== next.sequenceIndex) {
    return { state: next, events: [] };
  }
  return release(compiled, next, blocked.step, {
    tool: toolName,
    cause: "failed",
    failures: failure.count,
    error: failure.error,
  });
}

/** A successful run clears the tool's failure count. */
export function clearToolFailures(state: OrchestrationState, toolName: string): OrchestrationState {
  if (state.toolFailures === undefined || ownEntry(state.toolFailures, toolName) === undefined)
    return state;
  const { [toolName]: _cleared, ...others } = state.toolFailures;
  const { toolFailures: _all, ...rest } = state;
  return Object.keys(others).length === 0 ? rest : { ...rest, toolFailures: others };
}
