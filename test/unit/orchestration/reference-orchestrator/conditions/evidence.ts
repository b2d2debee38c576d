/**
 * What a condition looks at: the tool events considered (chronological) and the latest user
 * message, both already cut to what the step may see (see spec §3: a completed step sees only
 * evidence that arrived after its completion).
 */
export interface Evidence {
  readonly tools: readonly string[];
  readonly message: string | undefined;
}

/** Everything a condition may need besides itself. */
export interface ConditionContext {
  readonly evidence: Evidence;
  /** The owning step's sequence (positions of alternatives), for `sequence_match`. */
  readonly sequence: readonly (readonly string[])[] | undefined;
}

/** The last `window` items, or all of them. */
export function lastEvents(
  tools: readonly string[],
  window: number | undefined,
): readonly string[] {
  return window === undefined ? tools : tools.slice(Math.max(0, tools.length - window));
}
