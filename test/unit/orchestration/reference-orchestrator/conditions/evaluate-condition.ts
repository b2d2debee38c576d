import type { Condition } from "../../../../../src/orchestration/condition-schema.ts";
import type { ConditionContext } from "./evidence.ts";
import { messageRegexHolds, describeMessageRegex } from "./message-regex.ts";
import {
  describeMessageText,
  messageContainsHolds,
  messageStartsWithHolds,
} from "./message-text.ts";
import { describeNotRecentlyUsed, notRecentlyUsedHolds } from "./not-recently-used.ts";
import { describeSequenceMatch, sequenceMatchHolds } from "./sequence-match.ts";
import { describeToolUsed, toolUsedHolds } from "./tool-used.ts";

/** The one dispatch over condition types: a new type is a module plus a case here. */
export function conditionHolds(condition: Condition, context: ConditionContext): boolean {
  switch (condition.type) {
    case "tool_used":
      return toolUsedHolds(condition, context);
    case "sequence_match":
      return sequenceMatchHolds(context);
    case "not_recently_used":
      return notRecentlyUsedHolds(condition, context);
    case "message_contains":
      return messageContainsHolds(condition, context);
    case "message_starts_with":
      return messageStartsWithHolds(condition, context);
    case "message_regex":
      return messageRegexHolds(condition, context);
    default:
      return unreachable(condition);
  }
}

/** A short human description, used in events and the Web UI. */
export function describeCondition(
  condition: Condition,
  sequence: readonly (readonly string[])[] | undefined,
): string {
  switch (condition.type) {
    case "tool_used":
      return describeToolUsed(condition);
    case "sequence_match":
      return describeSequenceMatch(sequence);
    case "not_recently_used":
      return describeNotRecentlyUsed(condition);
    case "message_contains":
    case "message_starts_with":
      return describeMessageText(condition);
    case "message_regex":
      return describeMessageRegex(condition);
    default:
      return unreachable(condition);
  }
}

function unreachable(condition: never): never {
  throw new Error(`unknown condition type: ${JSON.stringify(condition)}`);
}
