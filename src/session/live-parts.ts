import type { LanguageModelV4Content, LanguageModelV4StreamPart } from "@ai-sdk/provider";

/** What live viewers read of a model call (src/client/live-events.ts): nothing else is published. */
export type LivePart =
  | { type: "stream-start" }
  | { type: "text-delta" | "reasoning-delta"; id: string; delta: string }
  | Extract<LanguageModelV4StreamPart, { type: "tool-call" }>;

/**
 * The live parts of a call's assembled result, as its activity would have published them: an
 * attempt start, then each text and reasoning block whole and each tool call. For a call whose
 * activity sent nothing while it ran (it ended within one publish interval), the workflow
 * publishes these itself: same parts for viewers, no signal in history.
 */
export function livePartsOfContent(content: readonly LanguageModelV4Content[]): LivePart[] {
  const parts: LivePart[] = [{ type: "stream-start" }];
  content.forEach((item, index) => {
    if ((item.type === "text" || item.type === "reasoning") && item.text !== "") {
      const type = item.type === "text" ? "text-delta" : "reasoning-delta";
      parts.push({ type, id: `${index}`, delta: item.text });
    } else if (item.type === "tool-call") {
      parts.push(item);
    }
  });
  return parts;
}
