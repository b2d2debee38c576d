import { z } from "zod";
import { setOwnEntry } from "./own-entries.ts";

const count = z.int().min(0);

export const tokenUsageSchema = z.object({
  inputTokens: z.number().min(0),
  outputTokens: z.number().min(0),
  totalTokens: z.number().min(0),
});

/** Where a step's sequence completed: its conditions only see evidence that came later. */
export const completionMarkSchema = z.object({ toolCount: count, turn: count });

/**
 * Consecutive failed runs of one tool (a successful run clears it), with the last error and the
 * turn of the last failure: a sequence stuck on a failing tool is released (tool-failures.ts).
 */
export const toolFailureSchema = z.object({ count: count, error: z.string(), turn: count });

/**
 * Orchestration state: plain JSON, small, carried across continue-as-new. Optional fields are
 * absent rather than undefined, so a JSON round trip returns an equal object.
 */
export const orchestrationStateSchema = z.object({
  activeStep: z.string().optional(),
  sequenceIndex: count,
  recentlyUsedTools: z.array(z.string()),
  toolCount: count,
  /** toolCount when the active step's sequence completed. */
  completedAt: count.optional(),
  /** turn when the active step's sequence completed (tells later user messages from earlier ones). */
  completedAtTurn: count.optional(),
  /** Completion marks of steps left after completing, so old evidence cannot re-activate them. */
  pastCompletions: z.record(z.string(), completionMarkSchema),
  lastUserMessage: z.string().optional(),
  turn: count,
  cumulativeTokenUsage: tokenUsageSchema,
  /**
   * Agent tools this worker cannot run, with the reason (not configured, not installed): never
   * offered, and steps that need them are not entered. Absent when every tool can run.
   */
  unavailableTools: z.record(z.string(), z.string()).optional(),
  /** Tools whose last runs failed, by name (absent when none has). */
  toolFailures: z.record(z.string(), toolFailureSchema).optional(),
});

export type OrchestrationState = z.infer<typeof orchestrationStateSchema>;
export type TokenUsage = z.infer<typeof tokenUsageSchema>;
export type CompletionMark = z.infer<typeof completionMarkSchema>;
export type ToolFailure = z.infer<typeof toolFailureSchema>;

/** Usage as providers report it: any field may be missing or not a number. */
export interface ReportedTokenUsage {
  inputTokens?: number | null;
  outputTokens?: number | null;
  totalTokens?: number | null;
}

export function emptyState(): OrchestrationState {
  return {
    sequenceIndex: 0,
    recentlyUsedTools: [],
    toolCount: 0,
    pastCompletions: {},
    turn: 0,
    cumulativeTokenUsage: { inputTokens: 0, outputTokens: 0, totalTokens: 0 },
  };
}

/**
 * The state with the active step's completion cleared (fields removed, not set to undefined). The
 * state itself when it has neither field: states are never mutated, and every caller copies it.
 */
export function withoutCompletion(state: OrchestrationState): OrchestrationState {
  if (!Object.hasOwn(state, "completedAt") && !Object.hasOwn(state, "completedAtTurn"))
    return state;
  const { completedAt: _at, completedAtTurn: _turn, ...rest } = state;
  return rest;
}

/**
 * A new state, the active step's completion left out: `{ ...withoutCompletion(state) }` in one
 * copy, for a decision to set fields on before it returns it. Without the rest pattern, which V8
 * runs in its runtime, several times slower than a spread.
 */
export function copyWithoutCompletion(state: OrchestrationState): OrchestrationState {
  if (!Object.hasOwn(state, "completedAt") && !Object.hasOwn(state, "completedAtTurn"))
    return { ...state };
  const copy: Record<string, unknown> = {};
  for (const key in state) {
    if (key === "completedAt" || key === "completedAtTurn" || !Object.hasOwn(state, key)) continue;
    // As the spread would: a state parsed from JSON may carry any key, "__proto__" included.
    setOwnEntry(copy, key, (state as Record<string, unknown>)[key]);
  }
  return copy as OrchestrationState;
}

/**
 * A copy of the completion marks without `step`'s, keys in the same order. A loop, not
 * `const { [step]: _, ...rest }`: V8 runs that rest pattern in its runtime, several times slower,
 * and a step is entered on about one tool event in four.
 */
export function completionsWithout(
  marks: Readonly<Record<string, CompletionMark>>,
  step: string,
): Record<string, CompletionMark> {
  const copy: Record<string, CompletionMark> = {};
  for (const name in marks) {
    if (name === step || !Object.hasOwn(marks, name)) continue;
    const mark = marks[name] as CompletionMark;
    // As the rest pattern would: an own "__proto__" key stays a key, not the copy's prototype.
    setOwnEntry(copy, name, mark);
  }
  return copy;
}
