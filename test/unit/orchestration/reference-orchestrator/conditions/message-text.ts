import type { ConditionOf } from "../../../../../src/orchestration/condition-schema.ts";
import type { ConditionContext } from "./evidence.ts";

type MessageContains = ConditionOf<"message_contains">;
type MessageStartsWith = ConditionOf<"message_starts_with">;

function normalise(text: string, caseSensitive: boolean | undefined): string {
  return caseSensitive === true ? text : text.toLowerCase();
}

export function messageContainsHolds(
  condition: MessageContains,
  context: ConditionContext,
): boolean {
  const message = context.evidence.message;
  if (message === undefined) return false;
  return normalise(message, condition.caseSensitive).includes(
    normalise(condition.value, condition.caseSensitive),
  );
}

export function messageStartsWithHolds(
  condition: MessageStartsWith,
  context: ConditionContext,
): boolean {
  const message = context.evidence.message;
  if (message === undefined) return false;
  // Leading whitespace is not part of what a person means to start with.
  return normalise(message.trimStart(), condition.caseSensitive).startsWith(
    normalise(condition.value, condition.caseSensitive),
  );
}

export function describeMessageText(condition: MessageContains | MessageStartsWith): string {
  const casing = condition.caseSensitive === true ? " (case-sensitive)" : "";
  return `${condition.type} ${JSON.stringify(condition.value)}${casing}`;
}
