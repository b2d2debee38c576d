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

export function messageRegexHolds(condition: MessageRegex, context: ConditionContext): boolean {
  const message = context.evidence.message;
  return message !== undefined && compileMessageRegex(condition).test(message);
}

export function describeMessageRegex(condition: MessageRegex): string {
  return `message_regex /${condition.value}/${condition.flags ?? ""}`;
}
