import { getErrorMessage, type LanguageModelV4ToolCall } from "@ai-sdk/provider";
import { safeParseJSON, safeValidateTypes } from "@ai-sdk/provider-utils";
import {
  asSchema,
  InvalidToolInputError,
  NoSuchToolError,
  type AssistantContent,
  type ModelMessage,
  type ToolResultPart,
  type ToolSet,
} from "ai";

/** A tool call the model made, its input parsed; `error` says why it cannot run. */
export interface ParsedToolCall {
  toolCallId: string;
  toolName: string;
  input: unknown;
  providerExecuted: boolean | undefined;
  providerMetadata: LanguageModelV4ToolCall["providerMetadata"];
  error?: unknown;
}

/**
 * Parses a call as `generateText` does: a tool not offered this step, input that is not JSON or
 * fails the tool's schema make the call invalid, with the AI SDK's own error, so the model reads
 * the same words. Empty input means `{}`.
 */
export async function parseToolCall(
  call: LanguageModelV4ToolCall,
  tools: ToolSet,
): Promise<ParsedToolCall> {
  const { toolCallId, toolName, input: text, providerExecuted, providerMetadata } = call;
  const tool = Object.hasOwn(tools, toolName) ? tools[toolName] : undefined;
  let error: unknown;
  if (tool === undefined) {
    error = new NoSuchToolError({ toolName, availableTools: Object.keys(tools) });
  } else {
    const schema = asSchema(tool.inputSchema);
    const parsed =
      text.trim() === ""
        ? await safeValidateTypes({ value: {}, schema })
        : await safeParseJSON({ text, schema });
    if (parsed.success) {
      return { toolCallId, toolName, input: parsed.value, providerExecuted, providerMetadata };
    }
    error = new InvalidToolInputError({ toolName, toolInput: text, cause: parsed.error });
  }
  // The invalid call keeps its input as JSON when it parses, as text otherwise.
  const raw = await safeParseJSON({ text });
  const input: unknown = raw.success ? raw.value : text;
  return { toolCallId, toolName, input, providerExecuted, providerMetadata, error };
}

/** What running (or refusing) one call gave the model. */
export type ToolOutcome =
  | { type: "tool-result"; call: ParsedToolCall; output: unknown }
  | { type: "tool-error"; call: ParsedToolCall; error: unknown };

/** A step's answer parts that reach the conversation, in the model's order. */
export type AnswerPart =
  | { type: "text" | "reasoning"; text: string; providerMetadata?: unknown }
  | { type: "custom"; kind: string; providerMetadata?: unknown }
  | { type: "tool-call"; call: ParsedToolCall };

/**
 * The step's messages as `generateText` builds them (`toResponseMessages`): one assistant
 * message with its text, reasoning and tool calls, then one tool message with each call's result
 * or error text, in the order of the calls.
 */
export function responseMessages(
  answer: readonly AnswerPart[],
  outcomes: readonly ToolOutcome[],
): ModelMessage[] {
  const messages: ModelMessage[] = [];
  const assistant: Exclude<AssistantContent, string> = [];
  const order = new Map<string, number>();
  for (const part of answer) {
    if (part.type === "tool-call") {
      const { call } = part;
      if (!order.has(call.toolCallId)) order.set(call.toolCallId, order.size);
      assistant.push({
        type: "tool-call",
        toolCallId: call.toolCallId,
        toolName: call.toolName,
        input: call.error !== undefined && typeof call.input !== "object" ? {} : call.input,
        providerExecuted: call.providerExecuted,
        providerOptions: call.providerMetadata,
      });
      continue;
    }
    if (part.type === "custom") {
      assistant.push({
        type: "custom",
        kind: part.kind,
        providerOptions: part.providerMetadata,
      } as (typeof assistant)[number]);
      continue;
    }
    // Only an empty text part is dropped: `generateText` keeps an empty reasoning part.
    if (part.type === "text" && part.text.length === 0 && part.providerMetadata == null) continue;
    assistant.push({
      type: part.type,
      text: part.text,
      providerOptions: part.providerMetadata,
    } as (typeof assistant)[number]);
  }
  if (assistant.length > 0) messages.push({ role: "assistant", content: assistant });
  const results: ToolResultPart[] = outcomes.map(({ call, ...outcome }) => ({
    type: "tool-result",
    toolCallId: call.toolCallId,
    toolName: call.toolName,
    output:
      outcome.type === "tool-error"
        ? { type: "error-text", value: getErrorMessage(outcome.error) }
        : modelOutput(outcome.output),
    // An invalid call's error carries no provider metadata; a call that ran does.
    ...(call.providerMetadata == null || call.error !== undefined
      ? {}
      : { providerOptions: call.providerMetadata }),
  }));
  if (results.length > 0) {
    const rank = (id: string): number => order.get(id) ?? Number.MAX_SAFE_INTEGER;
    // A stable sort: results of calls the answer did not make keep their place at the end.
    const sorted = results
      .map((part, index) => ({ part, index }))
      .sort((a, b) => rank(a.part.toolCallId) - rank(b.part.toolCallId) || a.index - b.index)
      .map(({ part }) => part);
    messages.push({ role: "tool", content: sorted });
  }
  return messages;
}

/** A tool's output as the model reads it: a string as text, anything else as plain JSON. */
function modelOutput(output: unknown) {
  if (typeof output === "string") return { type: "text" as const, value: output };
  const serialized = output === undefined ? undefined : JSON.stringify(output);
  return {
    type: "json" as const,
    value: serialized === undefined ? null : (JSON.parse(serialized) as null),
  };
}
