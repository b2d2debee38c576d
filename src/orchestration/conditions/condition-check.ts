import type { Condition } from "../condition-schema.ts";
import { messageRegexCheck } from "./message-regex.ts";
import { messageContainsCheck, messageStartsWithCheck } from "./message-text.ts";
import { notRecentlyUsedCheck } from "./not-recently-used.ts";
import { sequenceMatchCheck } from "./sequence-match.ts";
import { toolUsedCheck } from "./tool-used.ts";

/**
 * A condition compiled once per template for the decision path: it reads the step's evidence in
 * place — the recent tools from index `from` on, and the message — instead of a sliced copy, so
 * evaluating every step's conditions on every tool event allocates nothing. Decides exactly as
 * `conditionHolds` on the evidence `{ tools: tools.slice(from), message }`.
 */
export type ConditionCheck = (
  tools: readonly string[],
  from: number,
  message: string | undefined,
) => boolean;

/** The compiled twin of `conditionHolds`' dispatch: a new condition type needs a case in both. */
export function compileConditionCheck(
  condition: Condition,
  sequence: readonly (readonly string[])[] | undefined,
): ConditionCheck {
  switch (condition.type) {
    case "tool_used":
      return toolUsedCheck(condition);
    case "sequence_match":
      return sequenceMatchCheck(sequence);
    case "not_recently_used":
      return notRecentlyUsedCheck(condition);
    case "message_contains":
      return messageContainsCheck(condition);
    case "message_starts_with":
      return messageStartsWithCheck(condition);
    case "message_regex":
      return messageRegexCheck(condition);
    default:
      return unreachable(condition);
  }
}

/**
 * Whether the condition can only lose by seeing less evidence: holding on a window of tools (and
 * the message) means holding on any larger one. All but `not_recently_used`. A monotone condition
 * false on all the evidence is false on the narrower evidence a completed step may see, which lets
 * most steps be ruled out without working out that narrower evidence.
 */
export function isMonotone(condition: Condition): boolean {
  return condition.type !== "not_recently_used";
}

function unreachable(condition: never): never {
  throw new Error(`unknown condition type: ${JSON.stringify(condition)}`);
}
