import type {
  LanguageModelV4Message,
  LanguageModelV4Prompt,
  LanguageModelV4ToolResultOutput,
} from "@ai-sdk/provider";
import { TURN_NOTE_PREFIX } from "../../orchestration/turn-notes.ts";

/** One tool call of the current turn and, once it ran, what came back. */
export interface TurnToolCall {
  toolCallId: string;
  toolName: string;
  result?: TurnToolResult;
}

export interface TurnToolResult {
  /** The result as plain text: text outputs as they are, JSON outputs serialised. */
  text: string;
  /** A thrown tool error, a denied execution, or an error output the caller wrote. */
  isError: boolean;
  /** The result says "refused" or "not allowed" (a successful `{ content }` result never does). */
  isRefusal: boolean;
  /** The first heading (or first line) of the result, to quote in later steps and the answer. */
  heading: string;
}

/** What the scripted model reads from a prompt; nothing else decides its reply. */
export interface Conversation {
  userMessageCount: number;
  /** Text of the last user message; undefined when the prompt has none. */
  latestUserText: string | undefined;
  /** Assistant messages in the prompt: one per earlier model response. */
  assistantMessageCount: number;
  /** Tool calls after the last user message, in order. */
  turnCalls: TurnToolCall[];
  /** Every tool call id in the prompt, so new ids never collide with old ones. */
  usedToolCallIds: ReadonlySet<string>;
  /** What the instructions say the user must be told (lines marked with TURN_NOTE_PREFIX). */
  notes: string[];
}

const refusalPattern = /\brefused\b|\bnot allowed\b/i;
const headingLimit = 120;

export function readConversation(prompt: LanguageModelV4Prompt): Conversation {
  const lastUser = prompt.findLastIndex((message) => message.role === "user");
  const usedToolCallIds = new Set<string>();
  const turnCalls: TurnToolCall[] = [];
  const notes: string[] = [];
  let userMessageCount = 0;
  let assistantMessageCount = 0;

  prompt.forEach((message, index) => {
    if (message.role === "user") userMessageCount += 1;
    if (message.role === "assistant") assistantMessageCount += 1;
    if (message.role === "system") notes.push(...notesIn(message.content));
    if (message.role !== "assistant" && message.role !== "tool") return;
    for (const part of message.content) {
      if (part.type === "tool-call") {
        usedToolCallIds.add(part.toolCallId);
        if (index > lastUser) {
          turnCalls.push({ toolCallId: part.toolCallId, toolName: part.toolName });
        }
      } else if (part.type === "tool-result" && index > lastUser) {
        const call = turnCalls.find((candidate) => candidate.toolCallId === part.toolCallId);
        if (call !== undefined) call.result = readToolResult(part.toolName, part.output);
      }
    }
  });

  const lastUserMessage = lastUser === -1 ? undefined : prompt[lastUser];
  return {
    userMessageCount,
    latestUserText: lastUserMessage === undefined ? undefined : messageText(lastUserMessage),
    assistantMessageCount,
    turnCalls,
    usedToolCallIds,
    notes,
  };
}

function notesIn(text: string): string[] {
  return text
    .split(/\r?\n/)
    .filter((line) => line.startsWith(TURN_NOTE_PREFIX))
    .map((line) => line.slice(TURN_NOTE_PREFIX.length).trim())
    .filter((note) => note !== "");
}

export function messageText(message: LanguageModelV4Message): string {
  if (message.role === "system") return message.content;
  const texts: string[] = [];
  for (const part of message.content) {
    if (part.type === "text") texts.push(part.text);
  }
  return texts.join("\n");
}

export function toolOutputText(output: LanguageModelV4ToolResultOutput): string {
  switch (output.type) {
    case "text":
    case "error-text":
      return output.value;
    case "json":
    case "error-json":
      return contentOf(output.value) ?? JSON.stringify(output.value);
    case "execution-denied":
      return output.reason ?? "execution denied";
    case "content":
      return output.value
        .map((part) => (part.type === "text" ? part.text : ""))
        .filter((text) => text !== "")
        .join("\n");
    default: {
      const unknown: never = output;
      return JSON.stringify(unknown);
    }
  }
}

/** Tool results shaped `{ type, content: "## Heading ..." }` are read through their content. */
function contentOf(value: unknown): string | undefined {
  if (typeof value !== "object" || value === null || !("content" in value)) return undefined;
  const content = value.content;
  return typeof content === "string" ? content : undefined;
}

function readToolResult(toolName: string, output: LanguageModelV4ToolResultOutput): TurnToolResult {
  const text = toolOutputText(output);
  const isError =
    output.type === "error-text" ||
    output.type === "error-json" ||
    output.type === "execution-denied";
  // A tool's own Markdown (`{ content }`) may quote the user's words, so it never counts.
  const ownContent = output.type === "json" && contentOf(output.value) !== undefined;
  const line = firstHeading(text);
  return {
    text,
    isError,
    isRefusal: !ownContent && refusalPattern.test(text),
    heading: isError ? `${toolName} failed: ${errorCause(toolName, line)}` : line,
  };
}

/**
 * The cause alone from a tool error's text. The AI SDK stringifies a thrown error with
 * Error#toString ("Error: …") and the workflow already prefixes "<tool> failed: ", so the
 * heading would otherwise say both twice ("search failed: Error: search failed: …").
 */
function errorCause(toolName: string, text: string): string {
  const withoutClass = text.replace(/^[A-Za-z_]*Error: /, "");
  const prefix = `${toolName} failed: `;
  return withoutClass.startsWith(prefix) ? withoutClass.slice(prefix.length) : withoutClass;
}

/** The first Markdown heading without its `#`s, else the first non-empty line; one line, bounded. */
export function firstHeading(text: string): string {
  const lines = text
    .split(/\r?\n/)
    .map((line) => line.trim())
    .filter((line) => line !== "");
  const heading = lines.find((line) => line.startsWith("#"));
  const chosen =
    heading === undefined ? (lines[0] ?? "(empty result)") : heading.replace(/^#+\s*/, "");
  return truncate(chosen, headingLimit);
}

/** One line, at most `limit` characters, an ellipsis marking a cut. */
export function truncate(text: string, limit: number): string {
  const oneLine = text.replace(/\s+/g, " ").trim();
  return oneLine.length <= limit ? oneLine : `${oneLine.slice(0, limit - 1).trimEnd()}…`;
}

/**
 * `call-<user messages>-<n>`, n counting this turn's calls from 1, skipping ids already in the
 * prompt (a history trimmed by continue-as-new may hold ids from earlier numbering).
 */
export function nextToolCallIds(conversation: Conversation, count: number): string[] {
  const ids: string[] = [];
  let n = conversation.turnCalls.length;
  while (ids.length < count) {
    n += 1;
    const id = `call-${conversation.userMessageCount}-${n}`;
    if (!conversation.usedToolCallIds.has(id)) ids.push(id);
  }
  return ids;
}
