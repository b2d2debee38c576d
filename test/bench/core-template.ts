import type { AgentTemplateInput } from "../../src/orchestration/index.ts";
import { cognitiveToolNames } from "../../src/tools/index.ts";

const cognitive: readonly string[] = cognitiveToolNames;

/**
 * A 20-step template exercising every rule on the hot path: message and tool conditions,
 * windows, sequences with alternatives, patterns, resets and onComplete hand-overs.
 */
export function twentyStepTemplate(): AgentTemplateInput {
  const steps: NonNullable<AgentTemplateInput["orchestration"]>["steps"] = [];
  for (let index = 0; index < 19; index++) {
    const first = cognitive[index % cognitive.length] ?? "think";
    const second = cognitive[(index + 1) % cognitive.length] ?? "reflect";
    const third = cognitive[(index + 2) % cognitive.length] ?? "critique";
    steps.push({
      name: `Step${index}`,
      conditions:
        index % 3 === 0
          ? [{ type: "message_regex", value: `\\bmode${index}\\b`, flags: "i" }]
          : index % 3 === 1
            ? [
                { type: "tool_used", value: first, window: 2 },
                { type: "not_recently_used", value: "search", window: 5 },
              ]
            : [
                { type: "message_contains", value: `topic${index}` },
                { type: "tool_used", value: second },
              ],
      availableTools: {
        allowed: ["*cognitive*", "search"],
        denied: index % 2 === 0 ? ["summarize"] : [],
      },
      sequence: [first, [second, third], third],
      resetSequenceOn: ["user_message"],
      onComplete: "default",
    });
  }
  steps.push({ name: "Base", isDefault: true, availableTools: { allowed: ["*"] } });
  return {
    id: "bench-core",
    name: "Bench core",
    tools: [...cognitive, "summarize", "search"],
    orchestration: { historyLimit: 50, steps },
  };
}

export function noOrchestrationTemplate(): AgentTemplateInput {
  return { id: "bench-plain", name: "Bench plain", tools: [...cognitive, "summarize", "search"] };
}
