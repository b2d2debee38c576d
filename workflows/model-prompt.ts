import type {
  LanguageModelV4FunctionTool,
  LanguageModelV4Message,
  LanguageModelV4Prompt,
  LanguageModelV4ToolChoice,
} from "@ai-sdk/provider";
import { asSchema, MissingToolResultsError, type ModelMessage, type ToolSet } from "ai";

/**
 * The conversation and instructions as the provider's prompt, as `generateText` converts them
 * (its `convertToLanguageModelPrompt`) for what a session's messages hold: text, reasoning, tool
 * calls and their results. Parts a session never stores (files, images, approvals) are refused
 * by name rather than passed on half-converted.
 */
export function languageModelPrompt(
  instructions: string,
  messages: readonly ModelMessage[],
): LanguageModelV4Prompt {
  const converted: LanguageModelV4Message[] = [{ role: "system", content: instructions }];
  for (const message of messages) {
    const next = convertMessage(message);
    const last = converted.at(-1);
    // Consecutive tool messages become one, as the AI SDK merges them.
    if (next.role === "tool" && last?.role === "tool") {
      const lastPart = last.content.at(-1);
      if (lastPart !== undefined && last.providerOptions != null) {
        lastPart.providerOptions = { ...last.providerOptions, ...lastPart.providerOptions };
      }
      last.content.push(...next.content);
      last.providerOptions =
        lastPart === undefined
          ? mergeOptions(last.providerOptions, next.providerOptions)
          : next.providerOptions;
      continue;
    }
    converted.push(next);
  }
  checkToolResults(converted);
  return converted.filter((message) => message.role !== "tool" || message.content.length > 0);
}

type ProviderOptions = LanguageModelV4Message["providerOptions"];

function mergeOptions(base: ProviderOptions, overrides: ProviderOptions): ProviderOptions {
  if (base === undefined) return overrides;
  if (overrides === undefined) return base;
  return { ...base, ...overrides };
}

function unsupported(role: string, type: string): Error {
  return new Error(
    `a ${role} message holds a "${type}" part, which the session's model loop does not send to the model: sessions carry text, reasoning, tool calls and tool results only`,
  );
}

function convertMessage(message: ModelMessage): LanguageModelV4Message {
  const { providerOptions } = message;
  switch (message.role) {
    case "system":
      return { role: "system", content: message.content, providerOptions };
    case "user": {
      if (typeof message.content === "string") {
        return {
          role: "user",
          content: [{ type: "text", text: message.content }],
          providerOptions,
        };
      }
      const content = message.content.map((part) => {
        if (part.type !== "text") throw unsupported("user", part.type);
        return { type: "text" as const, text: part.text, providerOptions: part.providerOptions };
      });
      return { role: "user", content: content.filter((part) => part.text !== ""), providerOptions };
    }
    case "assistant": {
      if (typeof message.content === "string") {
        return {
          role: "assistant",
          content: [{ type: "text", text: message.content }],
          providerOptions,
        };
      }
      const parts = message.content.filter(
        (part) => part.type !== "text" || part.text !== "" || part.providerOptions != null,
      );
      return {
        role: "assistant",
        content: parts.map((part) => {
          switch (part.type) {
            case "text":
            case "reasoning":
              return { type: part.type, text: part.text, providerOptions: part.providerOptions };
            case "custom":
              return { type: "custom", kind: part.kind, providerOptions: part.providerOptions };
            case "tool-call":
              return {
                type: "tool-call",
                toolCallId: part.toolCallId,
                toolName: part.toolName,
                input: part.input,
                providerExecuted: part.providerExecuted,
                providerOptions: part.providerOptions,
              };
            default:
              throw unsupported("assistant", part.type);
          }
        }),
        providerOptions,
      };
    }
    case "tool":
      return {
        role: "tool",
        content: message.content.map((part) => {
          if (part.type !== "tool-result" || part.output.type === "content") {
            throw unsupported("tool", part.type === "tool-result" ? "content" : part.type);
          }
          return {
            type: "tool-result",
            toolCallId: part.toolCallId,
            toolName: part.toolName,
            output: part.output,
            providerOptions: part.providerOptions,
          };
        }),
        providerOptions,
      };
  }
}

/** A tool call with no result before the next user message is refused, as the AI SDK does. */
function checkToolResults(messages: readonly LanguageModelV4Message[]): void {
  const open = new Set<string>();
  for (const message of messages) {
    switch (message.role) {
      case "assistant":
        for (const part of message.content) {
          if (part.type === "tool-call" && part.providerExecuted !== true)
            open.add(part.toolCallId);
        }
        break;
      case "tool":
        for (const part of message.content) {
          if (part.type === "tool-result") open.delete(part.toolCallId);
        }
        break;
      case "user":
      case "system":
        if (open.size > 0) throw new MissingToolResultsError({ toolCallIds: [...open] });
    }
  }
  if (open.size > 0) throw new MissingToolResultsError({ toolCallIds: [...open] });
}

/**
 * The tools offered this step, in the tool set's order, as function tools with JSON schemas.
 * Synchronous when every schema's JSON form is at hand (the prepared schemas keep it): no
 * promise per tool per step.
 */
export function functionTools(
  tools: ToolSet,
): LanguageModelV4FunctionTool[] | undefined | Promise<LanguageModelV4FunctionTool[] | undefined> {
  const entries = Object.entries(tools);
  if (entries.length === 0) return undefined;
  const result: LanguageModelV4FunctionTool[] = [];
  const pending: Promise<void>[] = [];
  for (const [name, tool] of entries) {
    const { description } = tool;
    if (typeof description === "function") {
      throw new Error(`tool ${name} describes itself with a function; give it a string`);
    }
    const definition: LanguageModelV4FunctionTool = {
      type: "function",
      name,
      inputSchema: {},
      ...(description === undefined ? {} : { description }),
    };
    const schema = asSchema(tool.inputSchema).jsonSchema;
    if (isThenable(schema)) {
      pending.push(
        Promise.resolve(schema).then((resolved) => {
          definition.inputSchema = resolved;
        }),
      );
    } else {
      definition.inputSchema = schema;
    }
    result.push(definition);
  }
  return pending.length === 0 ? result : Promise.all(pending).then(() => result);
}

function isThenable<T>(value: T | PromiseLike<T>): value is PromiseLike<T> {
  return typeof (value as { then?: unknown }).then === "function";
}

/** What the orchestrator decides about tool choice, in the provider's terms. */
export type StepToolChoice = "auto" | "none" | "required" | { type: "tool"; toolName: string };

export function languageModelToolChoice(choice: StepToolChoice): LanguageModelV4ToolChoice {
  return typeof choice === "string"
    ? { type: choice }
    : { type: "tool", toolName: choice.toolName };
}
