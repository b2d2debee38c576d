import type { z } from "zod";
import { formatCognitiveContent } from "./cognitive-result.ts";
import type { CognitiveResult } from "./cognitive-result.ts";
import { defineTool } from "./tool-module.ts";
import { requiredText, toolInputObject } from "./tool-input-schema.ts";
import { sharedAcrossSessions } from "../orchestration/shared-across-sessions.ts";

// Built once per worker, not per cached session (see shared-across-sessions.ts).
export const brainstormInputSchema = sharedAcrossSessions("src/tools/brainstorm", () =>
  toolInputObject({
    challenge: requiredText("The problem or opportunity to generate ideas for, in a few words."),
    ideas: requiredText(
      "Your brainstorm in Markdown with the sections Problem framing, idea categories (each idea with how it would be applied), Key insights, and Next steps.",
    ),
  }),
);

export type BrainstormInput = z.infer<typeof brainstormInputSchema>;
export type BrainstormResult = CognitiveResult<"brainstorm">;

export function runBrainstorm(input: BrainstormInput): BrainstormResult {
  return {
    type: "brainstorm_result",
    content: formatCognitiveContent("💡 Brainstorm", input.challenge, input.ideas),
  };
}

export const brainstormTool = defineTool({
  name: "brainstorm",
  category: "cognitive",
  description: [
    "Generate a broad range of ideas for a problem or opportunity before settling on one.",
    "Use it when asked for ideas or options, or when the obvious approach is stuck.",
    "Write the ideas yourself in `ideas` with these sections: **Problem framing** (the challenge restated, its constraints and what success looks like), ideas grouped into **categories**, each idea with how it would be applied, **Key insights** (patterns or the most promising directions), and **Next steps**.",
    "The tool does not brainstorm for you; it records your ideas as a visible step of the session and returns them as Markdown under a heading naming the challenge.",
  ].join(" "),
  inputSchema: brainstormInputSchema,
  execute: runBrainstorm,
});
