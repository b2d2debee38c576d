import type { ConditionOf } from "./condition-schema.ts";
import type { AgentTemplate } from "./template-schema.ts";

export interface TemplateRegex {
  condition: ConditionOf<"message_regex">;
  /** Where the condition is, e.g. orchestration.steps[2].conditions[0]. */
  path: (string | number)[];
}

/** Every `message_regex` condition of a template: step conditions and reset triggers alike. */
export function templateRegexes(template: AgentTemplate): TemplateRegex[] {
  const found: TemplateRegex[] = [];
  template.orchestration.steps.forEach((step, index) => {
    const at: (string | number)[] = ["orchestration", "steps", index];
    (step.conditions ?? []).forEach((condition, n) => {
      if (condition.type === "message_regex")
        found.push({ condition, path: [...at, "conditions", n] });
    });
    (step.resetSequenceOn ?? []).forEach((trigger, n) => {
      if (typeof trigger === "object" && trigger.type === "message_regex")
        found.push({ condition: trigger, path: [...at, "resetSequenceOn", n] });
    });
  });
  return found;
}
