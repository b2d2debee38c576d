import { compileMessageRegex } from "../../orchestration/conditions/message-regex.ts";
import type { AgentTemplate } from "../../orchestration/template-schema.ts";
import { templateRegexes } from "../../orchestration/template-regexes.ts";
import { unsupportedFeature } from "./regex-features.ts";
import type { CheckIssue } from "./template-checks.ts";

/**
 * How many RE2 instructions the `message_regex` patterns of one template may compile to, together.
 * Linear is not free: deciding costs (message length) x (instructions), and patterns built to
 * defeat RE2's cached DFA (`\w*a\w{450}\d`) fall back to simulating every instruction on every
 * character. At this budget the worst pattern found decides a 32,000-character message in 0.7 to
 * 2.7 s on a busy shared 2-core machine (`npm run bench -- regex`), inside the 5 s workflow task;
 * without it 34 characters took 6.2 s. The shipped cognitive-reasoner's six patterns use 358
 * instructions; `message_contains` uses none.
 */
export const MESSAGE_REGEX_INSTRUCTION_BUDGET = 500;

/**
 * Each `message_regex` compiles for RE2 (the engine the workflow runs), and together they stay
 * within the instruction budget that bounds a decision's time on the longest message.
 */
export function checkRegexes(template: AgentTemplate, errors: CheckIssue[]): void {
  let total = 0;
  let reported = false;
  for (const { condition, path } of templateRegexes(template)) {
    const compiled = compileMessageRegex(condition);
    if (!compiled.ok) {
      const feature =
        compiled.syntax === undefined
          ? undefined
          : unsupportedFeature(compiled.syntax.description, compiled.syntax.snippet);
      errors.push({ path: [...path, compiled.field], message: feature ?? compiled.message });
      continue;
    }
    total += compiled.instructions;
    if (total > MESSAGE_REGEX_INSTRUCTION_BUDGET && !reported) {
      reported = true;
      errors.push({
        path: [...path, "value"],
        message: `this pattern compiles to ${compiled.instructions} RE2 instructions, which brings the template's message_regex patterns to ${total}; at most ${MESSAGE_REGEX_INSTRUCTION_BUDGET} in all, since matching takes time proportional to message length times instructions. Use smaller counted repeats ({1000} repeats its part 1,000 times), fewer alternatives, or message_contains`,
      });
    }
  }
}
