import type { z } from "zod";
import { formatCognitiveContent } from "./cognitive-result.ts";
import type { CognitiveResult } from "./cognitive-result.ts";
import { defineTool } from "./tool-module.ts";
import { requiredText, toolInputObject } from "./tool-input-schema.ts";
import { sharedAcrossSessions } from "../orchestration/shared-across-sessions.ts";

// Built once per worker, not per cached session (see shared-across-sessions.ts).
export const critiqueInputSchema = sharedAcrossSessions("src/tools/critique", () =>
  toolInputObject({
    subject: requiredText(
      "The work being critiqued (code, plan, argument, draft, design), in a few words.",
    ),
    analysis: requiredText(
      "Your critique in Markdown with the sections Understanding, Strengths, Issues, Suggestions, and Overall assessment.",
    ),
  }),
);

export type CritiqueInput = z.infer<typeof critiqueInputSchema>;
export type CritiqueResult = CognitiveResult<"critique">;

export function runCritique(input: CritiqueInput): CritiqueResult {
  return {
    type: "critique_result",
    content: formatCognitiveContent("🔍 Critique", input.subject, input.analysis),
  };
}

export const critiqueTool = defineTool({
  name: "critique",
  category: "cognitive",
  description: [
    "Critically evaluate a piece of work: code, a plan, an argument, a draft, a design, or your own earlier answer.",
    "Use it when asked for a review or feedback, and to check your own output before presenting it.",
    "Write the analysis yourself in `analysis` with these sections: **Understanding** (what the work is and what it tries to do), **Strengths**, **Issues** (problems, risks and errors, most serious first, each with why it matters), **Suggestions** (concrete improvements tied to the issues), and **Overall assessment** (a short verdict).",
    "The tool does not critique for you; it records your analysis as a visible step of the session and returns it as Markdown under a heading naming the subject.",
  ].join(" "),
  inputSchema: critiqueInputSchema,
  execute: runCritique,
});
