import { sharedAcrossSessions } from "../shared-across-sessions.ts";
import type { ConditionOf } from "../condition-schema.ts";
import { compileLinearRegex, type CompiledRegex } from "../linear-regex.ts";
import type { ConditionCheck } from "./condition-check.ts";
import type { ConditionContext } from "./evidence.ts";

type MessageRegex = ConditionOf<"message_regex">;

interface Prepared {
  compiled: CompiledRegex;
  /** The last message decided and its outcome: every tool event re-evaluates the same message. */
  last?: { message: string; holds: boolean };
}

// Caching a pure function's result cannot make the workflow nondeterministic. A compiled pattern
// keeps the DFA RE2 builds as it matches (up to 8 MB for a pattern built to need many states), so
// sessions share it by pattern and flags, and only so many patterns are kept: the least recently
// used is dropped. The last outcome is kept per condition object, that is per session.
const MAX_COMPILED_PATTERNS = 256;
// The worker's, not each session's (the sandbox evaluates this module once per workflow).
const compiledPatterns = sharedAcrossSessions(
  "src/orchestration/conditions/message-regex:compiledPatterns",
  () => new Map<string, CompiledRegex>(),
);
const prepared = new WeakMap<MessageRegex, Prepared>();

function compileShared(pattern: string, flags: string): CompiledRegex {
  const key = `${flags}/${pattern}`;
  let compiled = compiledPatterns.get(key);
  if (compiled === undefined) {
    compiled = compileLinearRegex(pattern, flags);
    if (compiledPatterns.size >= MAX_COMPILED_PATTERNS) {
      const oldest = compiledPatterns.keys().next();
      if (oldest.done !== true) compiledPatterns.delete(oldest.value);
    }
  } else {
    compiledPatterns.delete(key);
  }
  compiledPatterns.set(key, compiled);
  return compiled;
}

/** The condition's pattern compiled for RE2, or why it cannot be (the loader reports it). */
export function compileMessageRegex(condition: MessageRegex): CompiledRegex {
  return prepare(condition).compiled;
}

function prepare(condition: MessageRegex): Prepared {
  let entry = prepared.get(condition);
  if (entry === undefined) {
    entry = { compiled: compileShared(condition.value, condition.flags ?? "") };
    prepared.set(condition, entry);
  }
  return entry;
}

/** Whether the whole latest user message matches (RE2: time linear in its length). */
export function messageRegexHolds(condition: MessageRegex, context: ConditionContext): boolean {
  return messageMatches(condition, prepare(condition), context.evidence.message);
}

/** The compiled check: the pattern is looked up once, not on every decision. */
export function messageRegexCheck(condition: MessageRegex): ConditionCheck {
  const entry = prepare(condition);
  return (_tools, _from, message) => messageMatches(condition, entry, message);
}

function messageMatches(
  condition: MessageRegex,
  entry: Prepared,
  message: string | undefined,
): boolean {
  if (message === undefined) return false;
  if (entry.last?.message === message) return entry.last.holds;
  const { compiled } = entry;
  // The loader refuses such a template; one that reached the workflow unchecked fails here, in
  // the decision, with the loader's words.
  if (!compiled.ok) throw new Error(`${describeMessageRegex(condition)}: ${compiled.message}`);
  const holds = compiled.regex.test(message);
  entry.last = { message, holds };
  return holds;
}

export function describeMessageRegex(condition: MessageRegex): string {
  return `message_regex /${condition.value}/${condition.flags ?? ""}`;
}
