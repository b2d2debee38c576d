import { compileTemplate, type CompiledTemplate } from "./compiled-template.ts";
import type { OrchestrationEvent } from "./events.ts";
import { firedResetTrigger } from "./reset-triggers.ts";
import { heldConditions } from "./step-evidence.ts";
import { advanceInPlace, enterStep, selectStep, type Decision } from "./step-selection.ts";
import {
  emptyState,
  withoutCompletion,
  type OrchestrationState,
  type ReportedTokenUsage,
} from "./state.ts";
import type { AgentTemplate, Step } from "./template-schema.ts";
import type { ToolCatalogueEntry } from "./tool-catalogue-entry.ts";
import { approvalFor, type ApprovalNeed } from "./tool-approval.ts";
import { checkOfferedCall, offeredTools } from "./tool-offers.ts";
import { clearToolFailures, onToolAvailability, onToolFailed } from "./tool-outcomes.ts";
import {
  activeStepOf,
  availableExpectedTools,
  expectedTools,
  toolDecisions,
  type ToolCallCheck,
  type ToolDecision,
} from "./tool-policy.ts";

/** How the model must pick its tool: `forceSequence` makes the expected tool required. */
export type ToolChoice =
  { type: "auto" } | { type: "required" } | { type: "tool"; toolName: string };

export interface Orchestrator {
  readonly template: AgentTemplate;
  initialState(): OrchestrationState;
  onUserMessage(state: OrchestrationState, text: string): Decision;
  onToolUsed(state: OrchestrationState, toolName: string): Decision;
  /**
   * The worker's report, at a turn's start, of the agent tools it cannot run (name → reason):
   * they are never offered, and steps that need them are not entered.
   */
  onToolAvailability(
    state: OrchestrationState,
    unavailable: Readonly<Record<string, string>>,
  ): Decision;
  /** An allowed tool ran and failed: counts it, and releases a sequence stuck on it. */
  onToolFailed(state: OrchestrationState, toolName: string, error: string): Decision;
  /**
   * The tools to offer the model now, in template order. The array is shared between decisions
   * and frozen (changing it throws): copy it to change it.
   */
  allowedTools(state: OrchestrationState): string[];
  toolDecisions(state: OrchestrationState): ToolDecision[];
  checkToolCall(state: OrchestrationState, toolName: string): ToolCallCheck;
  toolChoice(state: OrchestrationState): ToolChoice;
  /** Whether an allowed call must wait for a person's approval (`approve` rules), and why. */
  approvalFor(
    state: OrchestrationState,
    toolName: string,
    input: unknown,
  ): ApprovalNeed | undefined;
  onTokenUsage(state: OrchestrationState, usage: ReportedTokenUsage): OrchestrationState;
}

/**
 * The orchestrator of spec §4–§6. Every method is pure and synchronous: state and event in,
 * next state and the events that explain it out. Inputs are never mutated.
 */
export function createOrchestrator(
  template: AgentTemplate,
  tools?: readonly ToolCatalogueEntry[],
): Orchestrator {
  const compiled = compileTemplate(template, tools);
  return {
    template,
    initialState: () => initialState(compiled),
    onUserMessage: (state, text) => onUserMessage(compiled, state, text),
    onToolUsed: (state, toolName) => onToolUsed(compiled, state, toolName),
    onToolAvailability: (state, unavailable) => onToolAvailability(compiled, state, unavailable),
    onToolFailed: (state, toolName, error) => onToolFailed(compiled, state, toolName, error),
    allowedTools: (state) => offeredTools(compiled, state),
    toolDecisions: (state) => toolDecisions(compiled, state),
    checkToolCall: (state, toolName) => checkOfferedCall(compiled, state, toolName),
    toolChoice: (state) => toolChoice(compiled, state),
    approvalFor: (state, toolName, input) => approvalFor(compiled, state, toolName, input),
    onTokenUsage,
  };
}

function initialState(compiled: CompiledTemplate): OrchestrationState {
  const state = emptyState();
  if (compiled.defaultStep === undefined) return state;
  return enterStep(state, compiled.defaultStep, "initial", [], undefined).state;
}

function inProgress(compiled: CompiledTemplate, state: OrchestrationState): boolean {
  return expectedTools(compiled, state) !== undefined;
}

function onUserMessage(
  compiled: CompiledTemplate,
  state: OrchestrationState,
  text: string,
): Decision {
  let next: OrchestrationState = { ...state, turn: state.turn + 1, lastUserMessage: text };
  const events: OrchestrationEvent[] = [];
  const event = { kind: "user_message", text } as const;
  const active = activeStepOf(compiled, next);

  if (active !== undefined && inProgress(compiled, next)) {
    // Rule 1: an in-progress sequence keeps its step; a user-message trigger resets it and
    // makes the step compete like any other for this evaluation.
    const trigger = firedResetTrigger(active, next, event);
    if (trigger === undefined) return { state: next, events };
    events.push({
      type: "sequence_reset",
      step: active.name,
      fromIndex: next.sequenceIndex,
      trigger,
    });
    next = { ...next, sequenceIndex: 0 };
  } else if (active !== undefined && next.completedAt !== undefined) {
    // Rule 5: new evidence making a completed step's conditions hold again restarts it.
    const held = (active.conditions ?? []).length > 0 ? heldConditions(next, active) : undefined;
    if (held !== undefined) {
      events.push({ type: "sequence_restarted", step: active.name, conditions: held });
      return { state: { ...withoutCompletion(next), sequenceIndex: 0 }, events };
    }
  }

  const selected = selectStep(compiled, next, event);
  next = selected.state;
  events.push(...selected.events);
  return restartConditionlessStep(compiled, next, events);
}

/**
 * A step without conditions (the default, typically) whose sequence completed and that stays
 * active restarts on the next user message: there is no evidence that could ever restart it
 * otherwise, and a user asking again expects the flow to run again.
 */
function restartConditionlessStep(
  compiled: CompiledTemplate,
  state: OrchestrationState,
  events: OrchestrationEvent[],
): Decision {
  const active = activeStepOf(compiled, state);
  const enteredNow = events.some((event) => event.type === "step_entered");
  if (active === undefined || enteredNow || state.completedAt === undefined)
    return { state, events };
  if ((active.conditions ?? []).length > 0 || (state.completedAtTurn ?? 0) >= state.turn)
    return { state, events };
  events.push({ type: "sequence_restarted", step: active.name, conditions: [] });
  return { state: { ...withoutCompletion(state), sequenceIndex: 0 }, events };
}

function recordTool(
  compiled: CompiledTemplate,
  state: OrchestrationState,
  tool: string,
): OrchestrationState {
  // One copy of exactly the kept window, rather than an append and then a slice.
  const previous = state.recentlyUsedTools;
  const start = Math.max(0, previous.length + 1 - compiled.historyLimit);
  const tools = new Array<string>(previous.length + 1 - start);
  for (let index = start; index < previous.length; index++)
    tools[index - start] = previous[index] as string;
  tools[tools.length - 1] = tool;
  return { ...state, recentlyUsedTools: tools, toolCount: state.toolCount + 1 };
}

/**
 * `expectedTools` for the active step already looked up: the decision path asks up to three
 * times, and the step does not change in between.
 */
function expectedOf(active: Step, state: OrchestrationState): string[] | undefined {
  const sequence = active.sequence;
  if (sequence === undefined || state.completedAt !== undefined) return undefined;
  return sequence[state.sequenceIndex];
}

function onToolUsed(
  compiled: CompiledTemplate,
  state: OrchestrationState,
  toolName: string,
): Decision {
  const check = checkOfferedCall(compiled, state, toolName);
  if (!check.ok) {
    return {
      state,
      events: [
        { type: "tool_refused", tool: toolName, reason: check.reason, expected: check.expected },
      ],
    };
  }
  // `next` is a new object that no caller holds until this decision returns it: the sequence
  // fields are set on it in place instead of copying the state once per change.
  const next = recordTool(compiled, clearToolFailures(state, toolName), toolName);
  const events: OrchestrationEvent[] = [
    { type: "tool_recorded", tool: toolName, toolCount: next.toolCount },
  ];
  const event = { kind: "tool", tool: toolName } as const;
  const active = activeStepOf(compiled, next);

  if (active !== undefined && expectedOf(active, next) !== undefined) {
    const trigger = firedResetTrigger(active, next, event);
    if (trigger !== undefined) {
      events.push({
        type: "sequence_reset",
        step: active.name,
        fromIndex: next.sequenceIndex,
        trigger,
      });
      next.sequenceIndex = 0;
    }
    const expected = expectedOf(active, next) ?? [];
    if (expected.includes(toolName)) {
      advanceInPlace(next, active, toolName, events);
    } else {
      events.push({ type: "tool_outside_sequence", step: active.name, tool: toolName, expected });
    }
    // Rule 1: the step keeps control until its sequence completes.
    if (expectedOf(active, next) !== undefined) return { state: next, events };
  }

  const selected = selectStep(compiled, next, event);
  for (const entered of selected.events) events.push(entered);
  return { state: selected.state, events };
}

function toolChoice(compiled: CompiledTemplate, state: OrchestrationState): ToolChoice {
  const step = activeStepOf(compiled, state);
  const expected = availableExpectedTools(compiled, state);
  if (step?.forceSequence !== true || expected === undefined || expected.length === 0)
    return { type: "auto" };
  const [only, ...others] = expected;
  return only !== undefined && others.length === 0
    ? { type: "tool", toolName: only }
    : { type: "required" };
}

function usable(value: number | null | undefined): number {
  return typeof value === "number" && Number.isFinite(value) && value > 0 ? value : 0;
}

/**
 * Adds one model call's usage. Missing, negative or non-finite numbers count as 0 and never reset
 * the totals; a missing total is the sum of input and output.
 */
function onTokenUsage(state: OrchestrationState, usage: ReportedTokenUsage): OrchestrationState {
  const input = usable(usage.inputTokens);
  const output = usable(usage.outputTokens);
  const total =
    typeof usage.totalTokens === "number" && Number.isFinite(usage.totalTokens)
      ? usable(usage.totalTokens)
      : input + output;
  const totals = state.cumulativeTokenUsage;
  return {
    ...state,
    cumulativeTokenUsage: {
      inputTokens: totals.inputTokens + input,
      outputTokens: totals.outputTokens + output,
      totalTokens: totals.totalTokens + total,
    },
  };
}
