import { APICallError, generateText } from "ai";
import type { LanguageModel } from "ai";
import { parseToolInput, summarizeTool } from "../src/tools/index.ts";
import type { SummarizeResult } from "../src/tools/index.ts";
import { summarizeFailure } from "./tool-failures.ts";

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

/**
 * @throws {ToolInputError} when the arguments are invalid.
 * @throws {ApplicationFailure} `SummarizeFailed`: non-retryable when the model
 *   cannot be resolved or the provider rejects the request, retryable otherwise.
 */
export async function runSummarizeTool(
  rawInput: unknown,
  resolveModel: () => LanguageModel,
  signal: AbortSignal | undefined,
): Promise<SummarizeResult> {
  const { text, focus } = parseToolInput(summarizeTool, rawInput);
  let model: LanguageModel;
  try {
    model = resolveModel();
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
