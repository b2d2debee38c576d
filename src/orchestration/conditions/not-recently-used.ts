import type { ConditionOf } from "../condition-schema.ts";
import type { ConditionCheck } from "./condition-check.ts";
import { lastEvents, type ConditionContext } from "./evidence.ts";
import { usedInWindow } from "./tool-window.ts";

type NotRecentlyUsed = ConditionOf<"not_recently_used">;

export function notRecentlyUsedHolds(
  condition: NotRecentlyUsed,
  context: ConditionContext,
): boolean {
  return !lastEvents(context.evidence.tools, condition.window).includes(condition.value);
}

export function notRecentlyUsedCheck(condition: NotRecentlyUsed): ConditionCheck {
  const { value, window } = condition;
  return (tools, from) => !usedInWindow(tools, from, window, value);
}

export function describeNotRecentlyUsed(condition: NotRecentlyUsed): string {
  return `not_recently_used "${condition.value}" in the last ${condition.window} tool events`;
}
