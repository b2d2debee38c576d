import type { JSONValue } from "@ai-sdk/provider";

export interface ScriptedToolCall {
  toolCallId: string;
  toolName: string;
  input: JSONValue;
}

/** One model response, before it is shaped as a generate result or a stream. */
export interface ScriptedResponse {
  text?: string;
  toolCalls: ScriptedToolCall[];
}
