import type { z } from "zod";
import { formatCognitiveContent } from "./cognitive-result.ts";
import type { CognitiveResult } from "./cognitive-result.ts";
import { defineTool } from "./tool-module.ts";
import { requiredText, toolInputObject } from "./tool-input-schema.ts";
import { sharedAcrossSessions } from "../orchestration/shared-across-sessions.ts";

// Built once per worker, not per cached session (see shared-across-sessions.ts).
export const thinkInputSchema = sharedAcrossSessions("src/tools/think", () =>
  toolInputObject({
    topic: requiredText("The problem or question you are reasoning about, in a few words."),
    reasoning: requiredText(
      "Your own step-by-step reasoning in Markdown: numbered steps, the assumptions you make, and the conclusion or next action you reach.",
    ),
  }),
);

export type ThinkInput = z.infer<typeof thinkInputSchema>;
export type ThinkResult = CognitiveResult<"think">;

export function runThink(input: ThinkInput): ThinkResult {
  return {
    type: "think_result",
    content: formatCognitiveContent("🧠 Thinking", input.topic, input.reasoning),
  };
}

export const thinkTool = defineTool({
  name: "think",
  category: "cognitive",
  description: [
    "Reason step by step before you act or answer.",
    "Use it when a question needs several steps of reasoning, when planning a multi-step task, when choosing between approaches, or when checking a result before you give it.",
    "Write the reasoning yourself in `reasoning`: work through the problem in numbered steps, state your assumptions, and end with the conclusion or the next action.",
    "The tool does not reason for you; it records your reasoning as a visible step of the session and returns it as Markdown under a heading naming the topic.",
  ].join(" "),
  inputSchema: thinkInputSchema,
  execute: runThink,
});
