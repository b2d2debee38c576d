import type { LanguageModelV4CallOptions, LanguageModelV4Content } from "@ai-sdk/provider";
import type { SessionMessage } from "../src/session/session-types.ts";

/** The longest running summary kept (characters); a longer one is cut at this length. */
export const MAX_SUMMARY_CHARS = 4_000;
/** How much of one tool result the summarizer sees. */
const TOOL_RESULT_PREVIEW_CHARS = 400;

/**
 * Where to cut the conversation so that `recentTurns` whole turns remain, or undefined while it
 * is short enough. Compaction waits for half a window of extra turns (at least one), so the
 * summary is rewritten every few turns rather than on every one. A turn starts at a user
 * message: cutting there never separates a tool call from its result.
 */
export function compactionCut(
  messages: readonly SessionMessage[],
  recentTurns: number,
): number | undefined {
  const starts = messages.flatMap((message, index) => (message.role === "user" ? [index] : []));
  const slack = Math.max(1, Math.floor(recentTurns / 2));
  if (starts.length <= recentTurns + slack) return undefined;
  return starts[starts.length - recentTurns];
}

function textOfContent(content: unknown): string {
  if (typeof content === "string") return content;
  if (!Array.isArray(content)) return "";
  return content
    .map((part: unknown) => {
      if (typeof part !== "object" || part === null) return "";
      const record = part as Record<string, unknown>;
      switch (record["type"]) {
        case "text":
          return typeof record["text"] === "string" ? record["text"] : "";
        case "tool-call":
          return `[called ${String(record["toolName"])} with ${JSON.stringify(record["input"] ?? {})}]`;
        case "tool-result": {
          const output = JSON.stringify(record["output"] ?? null);
          const preview =
            output.length > TOOL_RESULT_PREVIEW_CHARS
              ? `${output.slice(0, TOOL_RESULT_PREVIEW_CHARS)}…`
              : output;
          return `[${String(record["toolName"])} returned ${preview}]`;
        }
        default:
          return "";
      }
    })
    .filter((text) => text !== "")
    .join("\n");
}

/** The messages leaving the window, as a plain transcript the summarizer reads. */
export function transcriptOf(messages: readonly SessionMessage[]): string {
  return messages
    .map((message) => `${message.role}: ${textOfContent(message["content"])}`)
    .join("\n\n");
}

/** The summarizer's prompt: the summary so far and the turns leaving the window. */
export function summaryPrompt(
  previous: string | undefined,
  leaving: readonly SessionMessage[],
): string {
  return [
    previous === undefined ? "There is no summary yet." : `The summary so far:\n${previous}`,
    `The conversation continued:\n${transcriptOf(leaving)}`,
    "Write the updated summary of the whole conversation so far in at most 200 words: what the user wants, what was decided, facts and tool results worth keeping. Write only the summary.",
  ].join("\n\n");
}

export const SUMMARY_INSTRUCTIONS =
  "You keep a running summary of a conversation between a user and an assistant, so the assistant can continue it without the older messages.";

export function boundedSummary(text: string): string {
  const trimmed = text.trim();
  return trimmed.length > MAX_SUMMARY_CHARS ? `${trimmed.slice(0, MAX_SUMMARY_CHARS)}…` : trimmed;
}

/**
 * The summarizer's one model call as `generateText({ instructions, prompt })` would make it: the
 * instructions as the system message, the prompt as one user text part, tool choice "auto". The
 * workflow calls the model directly: `generateText` costs ~100 promises for this one call, and
 * each promise made in workflow code is an `Error` with a source-mapped stack in the SDK's
 * stack-trace hook (the biggest share of replay CPU). Only the AI SDK's `user-agent` header,
 * which names its version, is left out.
 */
export function summaryCallOptions(
  previous: string | undefined,
  leaving: readonly SessionMessage[],
): LanguageModelV4CallOptions {
  return {
    toolChoice: { type: "auto" },
    prompt: [
      { role: "system", content: SUMMARY_INSTRUCTIONS },
      { role: "user", content: [{ type: "text", text: summaryPrompt(previous, leaving) }] },
    ],
  };
}

/** The text of a model call's answer, as `generateText`'s `text`: its text parts, joined. */
export function answerText(content: readonly LanguageModelV4Content[]): string {
  return content.map((part) => (part.type === "text" ? part.text : "")).join("");
}
