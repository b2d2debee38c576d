import { compileMessageRegex } from "../../orchestration/conditions/message-regex.ts";
import { MESSAGE_REGEX_INSTRUCTION_BUDGET } from "../../orchestration/linear-regex.ts";
import type { AgentTemplate } from "../../orchestration/template-schema.ts";
import { templateRegexes } from "../../orchestration/template-regexes.ts";
import { unsupportedFeature } from "./regex-features.ts";
import type { CheckIssue } from "./template-checks.ts";

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
