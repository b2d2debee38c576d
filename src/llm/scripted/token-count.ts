import type {
  LanguageModelV4CallOptions,
  LanguageModelV4Message,
  LanguageModelV4Usage,
} from "@ai-sdk/provider";
import { messageText, toolOutputText } from "./conversation.ts";
import type { ScriptedResponse } from "./scripted-response.ts";

// Token accounting the scripted model can stand behind: one token per four characters, rounded
// up, of everything sent (messages and tool definitions) and everything returned.

/** `JSON.stringify(undefined)` is undefined, whatever its declared type says. */
function jsonLength(value: unknown): number {
  return value === undefined ? 0 : JSON.stringify(value).length;
}

export function countTokens(characters: number): number {
  return Math.ceil(characters / 4);
}

function messageCharacters(message: LanguageModelV4Message): number {
  if (message.role === "system" || message.role === "user") return messageText(message).length;
  let characters = 0;
  for (const part of message.content) {
    if (part.type === "text" || part.type === "reasoning") characters += part.text.length;
    else if (part.type === "tool-call") characters += part.toolName.length + jsonLength(part.input);
    else if (part.type === "tool-result")
      characters += part.toolName.length + toolOutputText(part.output).length;
  }
  return characters;
}

export function promptCharacters(options: LanguageModelV4CallOptions): number {
  const messages = options.prompt.reduce((sum, message) => sum + messageCharacters(message), 0);
  const tools = (options.tools ?? []).reduce((sum, tool) => sum + JSON.stringify(tool).length, 0);
  return messages + tools;
}

export function responseCharacters(response: ScriptedResponse): number {
  const calls = response.toolCalls.reduce(
    (sum, call) => sum + call.toolName.length + JSON.stringify(call.input).length,
    0,
  );
  return (response.text?.length ?? 0) + calls;
}

export function scriptedUsage(
  options: LanguageModelV4CallOptions,
  response: ScriptedResponse,
): LanguageModelV4Usage {
  const inputCharacters = promptCharacters(options);
  const outputCharacters = responseCharacters(response);
  const input = countTokens(inputCharacters);
  const output = countTokens(outputCharacters);
  return {
    inputTokens: { total: input, noCache: input, cacheRead: 0, cacheWrite: 0 },
    outputTokens: { total: output, text: output, reasoning: 0 },
    raw: { inputCharacters, outputCharacters, charactersPerToken: 4 },
  };
}
