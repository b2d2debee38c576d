import type { z } from "zod";
import { formatCognitiveContent } from "./cognitive-result.ts";
import type { CognitiveResult } from "./cognitive-result.ts";
import { defineTool } from "./tool-module.ts";
import { requiredText, toolInputObject } from "./tool-input-schema.ts";
import { sharedAcrossSessions } from "../orchestration/shared-across-sessions.ts";

// Built once per worker, not per cached session (see shared-across-sessions.ts).
export const compareInputSchema = sharedAcrossSessions("src/tools/compare", () =>
  toolInputObject({
    topic: requiredText(
      "What is being compared, in a few words (for example `PostgreSQL vs MySQL`).",
    ),
    comparison: requiredText(
      "Your comparison in Markdown with the sections Definitions, Criteria, Analysis (a Markdown table of options against criteria), Trade-offs, and Conclusion.",
    ),
  }),
);

export type CompareInput = z.infer<typeof compareInputSchema>;
export type CompareResult = CognitiveResult<"compare">;

export function runCompare(input: CompareInput): CompareResult {
  return {
    type: "compare_result",
    content: formatCognitiveContent("📊 Comparison", input.topic, input.comparison),
  };
}

export const compareTool = defineTool({
  name: "compare",
  category: "cognitive",
  description: [
    "Compare two or more options systematically against explicit criteria.",
    "Use it when choosing between alternatives (tools, designs, products, approaches) or when asked how things differ.",
    "Write the comparison yourself in `comparison` with these sections: **Definitions** (each option, briefly), **Criteria** (what matters and why), **Analysis** (a Markdown table with one row per criterion and one column per option), **Trade-offs** (what each choice gains and gives up), and **Conclusion** (which option suits which situation).",
    "The tool does not compare for you; it records your comparison as a visible step of the session and returns it as Markdown under a heading naming the topic.",
  ].join(" "),
  inputSchema: compareInputSchema,
  execute: runCompare,
});
