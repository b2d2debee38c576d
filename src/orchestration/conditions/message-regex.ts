import type { ConditionOf } from "../condition-schema.ts";
import type { ConditionContext } from "./evidence.ts";

type MessageRegex = ConditionOf<"message_regex">;

// Compiled once per condition object: templates are parsed once, and conditions are immutable.
const compiled = new WeakMap<MessageRegex, RegExp>();

/** Compiles the condition's pattern (throws SyntaxError for an invalid one; the loader reports it). */
export function compileMessageRegex(condition: MessageRegex): RegExp {
  let regex = compiled.get(condition);
  if (regex === undefined) {
    regex = new RegExp(condition.value, condition.flags ?? "");
    compiled.set(condition, regex);
  }
  return regex;
}

/**
 * How much of a message `message_regex` looks at: the start, where what a user asks for is.
 * A backtracking engine's time grows with the text (quadratically for a plain `a.*b`), and the
 * workflow task that evaluates conditions has a few seconds: at 32,000 characters `a.*b` alone
 * takes about a second, at this length a few milliseconds.
 */
export const MESSAGE_REGEX_TEXT_LIMIT = 4_000;

export function messageRegexHolds(condition: MessageRegex, context: ConditionContext): boolean {
  const message = context.evidence.message;
  if (message === undefined) return false;
  const text =
    message.length > MESSAGE_REGEX_TEXT_LIMIT
      ? message.slice(0, MESSAGE_REGEX_TEXT_LIMIT)
      : message;
  return compileMessageRegex(condition).test(text);
}

export function describeMessageRegex(condition: MessageRegex): string {
  return `message_regex /${condition.value}/${condition.flags ?? ""}`;
}
