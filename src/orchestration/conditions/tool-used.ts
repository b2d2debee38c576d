import type { ConditionOf } from "../condition-schema.ts";
import type { ConditionCheck } from "./condition-check.ts";
import { lastEvents, type ConditionContext } from "./evidence.ts";
import { usedInWindow } from "./tool-window.ts";

type ToolUsed = ConditionOf<"tool_used">;

export function toolUsedHolds(condition: ToolUsed, context: ConditionContext): boolean {
  return lastEvents(context.evidence.tools, condition.window).includes(condition.value);
}

export function toolUsedCheck(condition: ToolUsed): ConditionCheck {
  const { value, window } = condition;
  return (tools, from) => usedInWindow(tools, from, window, value);
}

export function describeToolUsed(condition: ToolUsed): string {
  const scope =
    condition.window === undefined ? "" : ` in the last ${condition.window} tool events`;
  return `tool_used "${condition.value}"${scope}`;
}
