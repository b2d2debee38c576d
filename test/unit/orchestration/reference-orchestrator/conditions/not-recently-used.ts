import type { ConditionOf } from "../../../../../src/orchestration/condition-schema.ts";
import { lastEvents, type ConditionContext } from "./evidence.ts";

type NotRecentlyUsed = ConditionOf<"not_recently_used">;

export function notRecentlyUsedHolds(
  condition: NotRecentlyUsed,
  context: ConditionContext,
): boolean {
  return !lastEvents(context.evidence.tools, condition.window).includes(condition.value);
}

export function describeNotRecentlyUsed(condition: NotRecentlyUsed): string {
  return `not_recently_used "${condition.value}" in the last ${condition.window} tool events`;
}
