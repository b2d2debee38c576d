import type { Condition } from "../../../../src/orchestration/condition-schema.ts";
import { isMessageCondition } from "../../../../src/orchestration/condition-schema.ts";
import { conditionHolds, describeCondition } from "./conditions/evaluate-condition.ts";
import type { OrchestrationState } from "./state.ts";
import type { Step } from "../../../../src/orchestration/template-schema.ts";

export type NewEvent = { kind: "user_message"; text: string } | { kind: "tool"; tool: string };

/**
 * Whether a condition holds "on the new event": message conditions react to a new user message,
 * tool conditions to a new tool event (`tool_used` means this very event), never across kinds.
 */
function holdsOnEvent(
  condition: Condition,
  step: Step,
  state: OrchestrationState,
  event: NewEvent,
): boolean {
  const messageCondition = isMessageCondition(condition.type);
  if (messageCondition !== (event.kind === "user_message")) return false;
  const scoped = condition.type === "tool_used" ? { ...condition, window: 1 } : condition;
  const evidence = {
    tools: state.recentlyUsedTools,
    message: event.kind === "user_message" ? event.text : undefined,
  };
  return conditionHolds(scoped, { evidence, sequence: step.sequence });
}

/** The first `resetSequenceOn` trigger that fires on this event, described; undefined if none. */
export function firedResetTrigger(
  step: Step,
  state: OrchestrationState,
  event: NewEvent,
): string | undefined {
  for (const trigger of step.resetSequenceOn ?? []) {
    if (trigger === "user_message") {
      if (event.kind === "user_message") return "user_message";
    } else if (typeof trigger === "string") {
      const own = (step.conditions ?? []).find(
        (condition) => condition.type === trigger && holdsOnEvent(condition, step, state, event),
      );
      if (own !== undefined) return describeCondition(own, step.sequence);
    } else if (holdsOnEvent(trigger, step, state, event)) {
      return describeCondition(trigger, step.sequence);
    }
  }
  return undefined;
}
