import { createContext, useContext } from "react";
import type { TimelineEntry } from "../api/api-types.ts";

type ToolCallEntry = Extract<TimelineEntry, { kind: "tool_call" }>;

/**
 * The session's tool calls as the timeline knows them, by tool call id: the chat's tool parts
 * read the outcome the session recorded (a refusal and why) beside what the stream showed.
 */
export const ToolCallsContext = createContext<ReadonlyMap<string, ToolCallEntry>>(new Map());

export function useToolCall(toolCallId: string): ToolCallEntry | undefined {
  return useContext(ToolCallsContext).get(toolCallId);
}
