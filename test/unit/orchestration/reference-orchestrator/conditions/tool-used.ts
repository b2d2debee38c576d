import type { ConditionOf } from "../../../../../src/orchestration/condition-schema.ts";
import { lastEvents, type ConditionContext } from "./evidence.ts";

type ToolUsed = ConditionOf<"tool_used">;

export function toolUsedHolds(condition: ToolUsed, context: ConditionContext): boolean {
  return lastEvents(context.evidence.tools, condition.window).includes(condition.value);
}

export function describeToolUsed(condition: ToolUsed): string {
  const scope =
    condition.window === undefined ? "" : ` in the last ${condition.window} tool events`;
  return `tool_used "${condition.value}"${scope}`;
}
