import type { ConditionOf } from "../condition-schema.ts";
import type { ConditionCheck } from "./condition-check.ts";
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

/**
 * A session's tool events re-evaluate the same message many times between two user messages, so
 * the check keeps the last message's outcome (and the normalised value) instead of lower-casing
 * the message again on every tool event.
 */
function memoised(holds: (message: string) => boolean): ConditionCheck {
  let lastMessage: string | undefined;
  let lastHolds = false;
  return (_tools, _from, message) => {
    if (message === undefined) return false;
    if (message !== lastMessage) {
      lastHolds = holds(message);
      lastMessage = message;
    }
    return lastHolds;
  };
}

export function messageContainsCheck(condition: MessageContains): ConditionCheck {
  const caseSensitive = condition.caseSensitive;
  const value = normalise(condition.value, caseSensitive);
  return memoised((message) => normalise(message, caseSensitive).includes(value));
}

export function messageStartsWithCheck(condition: MessageStartsWith): ConditionCheck {
  const caseSensitive = condition.caseSensitive;
  const value = normalise(condition.value, caseSensitive);
  return memoised((message) => normalise(message.trimStart(), caseSensitive).startsWith(value));
}

export function describeMessageText(condition: MessageContains | MessageStartsWith): string {
  const casing = condition.caseSensitive === true ? " (case-sensitive)" : "";
  return `${condition.type} ${JSON.stringify(condition.value)}${casing}`;
}
