import { APICallError, generateText } from "ai";
import type { LanguageModel } from "ai";
import type { z } from "zod";
import { toolFailure } from "./tool-failure.ts";
import { optionalText, requiredText, toolInputObject } from "./tool-input-schema.ts";
import { defineTool } from "./tool-module.ts";
import type { ToolContext } from "./tool-module.ts";
import { sharedAcrossSessions } from "../orchestration/shared-across-sessions.ts";

// Built once per worker, not per cached session (see shared-across-sessions.ts).
export const summarizeInputSchema = sharedAcrossSessions("src/tools/summarize", () =>
  toolInputObject({
    text: requiredText("The full text to summarise."),
    focus: optionalText(
      "What the summary should concentrate on, for example `decisions and open questions`. Omit it for a general summary.",
    ),
  }),
);

export type SummarizeInput = z.infer<typeof summarizeInputSchema>;

export interface SummarizeResult {
  type: "summarize_result";
  content: string;
}

export function summarizeInstructions(focus: string | undefined): string {
  const lines = [
    "You summarise text faithfully.",
    "Keep the key facts: names, numbers, dates, decisions, conclusions and open questions.",
    "Do not add information that is not in the text, and do not give your own opinion.",
    "Write a concise Markdown summary, much shorter than the text, in the text's language.",
    "Reply with the summary only.",
  ];
  if (focus !== undefined) {
    lines.push(`Focus the summary on: ${focus}.`);
  }
  return lines.join("\n");
}

function summarizeFailure(message: string, options: { nonRetryable: boolean; cause?: Error }) {
  return toolFailure("SummarizeFailed", message, options);
}

/**
 * Summarises with the session's own model.
 *
 * @throws {ApplicationFailure} `SummarizeFailed`: non-retryable when the model
 *   cannot be resolved or the provider rejects the request, retryable otherwise.
 */
export async function runSummarizeTool(
  { text, focus }: SummarizeInput,
  { sessionModel, signal }: ToolContext,
): Promise<SummarizeResult> {
  let model: LanguageModel;
  try {
    model = sessionModel();
  } catch (error) {
    throw summarizeFailure(`summarize: cannot use the session's model: ${messageOf(error)}`, {
      nonRetryable: true,
      cause: asError(error),
    });
  }
  let summary: string;
  try {
    const result = await generateText({
      model,
      instructions: summarizeInstructions(focus),
      prompt: text,
      // The activity's retry policy owns retries.
      maxRetries: 0,
      abortSignal: signal,
    });
    summary = result.text.trim();
  } catch (error) {
    if (signal?.aborted === true) {
      throw signal.reason;
    }
    if (APICallError.isInstance(error)) {
      throw summarizeFailure(`summarize: the model call failed: ${error.message}`, {
        nonRetryable: !error.isRetryable,
        cause: error,
      });
    }
    throw error;
  }
  if (summary === "") {
    throw summarizeFailure("summarize: the model returned an empty summary", {
      nonRetryable: false,
    });
  }
  return { type: "summarize_result", content: summary };
}

function messageOf(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}

function asError(error: unknown): Error | undefined {
  return error instanceof Error ? error : undefined;
}

export const summarizeTool = defineTool({
  name: "summarize",
  category: "writing",
  description: [
    "Condense a long text (a document, a transcript, a tool result, an earlier part of the conversation) into a short summary that keeps its key points.",
    "Use it when a text is too long to work with directly or when the user asks for a summary.",
    "Pass the whole text in `text`, and in `focus` say what matters most if the summary should concentrate on something.",
    "Returns the summary as Markdown.",
  ].join(" "),
  inputSchema: summarizeInputSchema,
  runsLong: true,
  execute: runSummarizeTool,
});
