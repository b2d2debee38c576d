import type { z } from "zod";
import { formatCognitiveContent } from "./cognitive-result.ts";
import type { CognitiveResult } from "./cognitive-result.ts";
import { defineTool } from "./tool-module.ts";
import { requiredText, toolInputObject } from "./tool-input-schema.ts";
import { sharedAcrossSessions } from "../orchestration/shared-across-sessions.ts";

// Built once per worker, not per cached session (see shared-across-sessions.ts).
export const debateInputSchema = sharedAcrossSessions("src/tools/debate", () =>
  toolInputObject({
    topic: requiredText("The question or position being debated, in a few words."),
    perspectives: requiredText(
      "Your debate in Markdown: an Introduction, then each perspective with its arguments, counter-arguments and evidence, then a Synthesis and a Conclusion.",
    ),
  }),
);

export type DebateInput = z.infer<typeof debateInputSchema>;
export type DebateResult = CognitiveResult<"debate">;

export function runDebate(input: DebateInput): DebateResult {
  return {
    type: "debate_result",
    content: formatCognitiveContent("⚖️ Debate", input.topic, input.perspectives),
  };
}

export const debateTool = defineTool({
  name: "debate",
  category: "cognitive",
  description: [
    "Weigh a contested question from several perspectives before taking a position.",
    "Use it for decisions or questions where reasonable people disagree, or when you risk seeing only one side.",
    "Write the debate yourself in `perspectives` with these sections: **Introduction** (the question and why it is contested), one section per perspective giving its **arguments**, the **counter-arguments** against it, and the **evidence** for each, then a **Synthesis** (where the perspectives agree, and what the disagreement really turns on) and a **Conclusion** (your position and how confident you are).",
    "The tool does not debate for you; it records your debate as a visible step of the session and returns it as Markdown under a heading naming the topic.",
  ].join(" "),
  inputSchema: debateInputSchema,
  execute: runDebate,
});
