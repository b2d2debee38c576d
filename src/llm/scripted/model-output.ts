import type {
  LanguageModelV4Content,
  LanguageModelV4FinishReason,
  LanguageModelV4GenerateResult,
  LanguageModelV4StreamPart,
  LanguageModelV4Usage,
} from "@ai-sdk/provider";
import type { ScriptedResponse } from "./scripted-response.ts";

const wordsPerDelta = 3;

export function finishReasonOf(response: ScriptedResponse): LanguageModelV4FinishReason {
  return response.toolCalls.length > 0
    ? { unified: "tool-calls", raw: "tool_calls" }
    : { unified: "stop", raw: "stop" };
}

function contentOf(response: ScriptedResponse): LanguageModelV4Content[] {
  const content: LanguageModelV4Content[] = [];
  if (response.text !== undefined && response.text !== "") {
    content.push({ type: "text", text: response.text });
  }
  for (const call of response.toolCalls) {
    content.push({
      type: "tool-call",
      toolCallId: call.toolCallId,
      toolName: call.toolName,
      input: JSON.stringify(call.input),
    });
  }
  return content;
}

export function toGenerateResult(
  response: ScriptedResponse,
  usage: LanguageModelV4Usage,
  metadata: { id: string; modelId: string },
): LanguageModelV4GenerateResult {
  return {
    content: contentOf(response),
    finishReason: finishReasonOf(response),
    usage,
    response: metadata,
    warnings: [],
  };
}

/** Splits text into deltas of a few words each; joined, they give the text back exactly. */
export function textDeltas(text: string): string[] {
  const words = text.match(/\s+|\S+\s*/g) ?? [];
  const deltas: string[] = [];
  for (let index = 0; index < words.length; index += wordsPerDelta) {
    deltas.push(words.slice(index, index + wordsPerDelta).join(""));
  }
  return deltas;
}

export function toStreamParts(
  response: ScriptedResponse,
  usage: LanguageModelV4Usage,
  metadata: { id: string; modelId: string },
): LanguageModelV4StreamPart[] {
  const parts: LanguageModelV4StreamPart[] = [
    { type: "stream-start", warnings: [] },
    { type: "response-metadata", ...metadata },
  ];
  if (response.text !== undefined && response.text !== "") {
    const id = "text-1";
    parts.push({ type: "text-start", id });
    for (const delta of textDeltas(response.text)) parts.push({ type: "text-delta", id, delta });
    parts.push({ type: "text-end", id });
  }
  for (const call of response.toolCalls) {
    const input = JSON.stringify(call.input);
    parts.push(
      { type: "tool-input-start", id: call.toolCallId, toolName: call.toolName },
      { type: "tool-input-delta", id: call.toolCallId, delta: input },
      { type: "tool-input-end", id: call.toolCallId },
      { type: "tool-call", toolCallId: call.toolCallId, toolName: call.toolName, input },
    );
  }
  parts.push({ type: "finish", usage, finishReason: finishReasonOf(response) });
  return parts;
}

export function streamOf<T>(parts: readonly T[]): ReadableStream<T> {
  return new ReadableStream<T>({
    start(controller) {
      for (const part of parts) controller.enqueue(part);
      controller.close();
    },
  });
}
