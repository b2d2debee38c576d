import type { z } from "zod";
import type { ToolDefinition } from "./tool-definition.ts";
import { optionalText, requiredText, toolInputObject } from "./tool-input-schema.ts";

export const summarizeInputSchema = toolInputObject({
  text: requiredText("The full text to summarise."),
  focus: optionalText(
    "What the summary should concentrate on, for example `decisions and open questions`. Omit it for a general summary.",
  ),
});

export type SummarizeInput = z.infer<typeof summarizeInputSchema>;

export interface SummarizeResult {
  type: "summarize_result";
  content: string;
}

export const summarizeTool: ToolDefinition<SummarizeInput> = {
  name: "summarize",
  category: "writing",
  description: [
    "Condense a long text (a document, a transcript, a tool result, an earlier part of the conversation) into a short summary that keeps its key points.",
    "Use it when a text is too long to work with directly or when the user asks for a summary.",
    "Pass the whole text in `text`, and in `focus` say what matters most if the summary should concentrate on something.",
    "Returns the summary as Markdown.",
  ].join(" "),
  inputSchema: summarizeInputSchema,
};
