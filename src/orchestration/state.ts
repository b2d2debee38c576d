import { z } from "zod";

const count = z.int().min(0);

export const tokenUsageSchema = z.object({
  inputTokens: z.number().min(0),
  outputTokens: z.number().min(0),
  totalTokens: z.number().min(0),
});

/** Where a step's sequence completed: its conditions only see evidence that came later. */
export const completionMarkSchema = z.object({ toolCount: count, turn: count });

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
});

export type OrchestrationState = z.infer<typeof orchestrationStateSchema>;
export type TokenUsage = z.infer<typeof tokenUsageSchema>;
export type CompletionMark = z.infer<typeof completionMarkSchema>;

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

/** The state with the active step's completion cleared (fields removed, not set to undefined). */
export function withoutCompletion(state: OrchestrationState): OrchestrationState {
  const { completedAt: _at, completedAtTurn: _turn, ...rest } = state;
  return rest;
}
