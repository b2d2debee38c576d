import type { SessionMessage } from "../session/index.ts";

const userLimit = 200;
const replyLineLimit = 6;
const replyCharLimit = 480;

/** The text parts of a message, joined; tool calls and results are left out. */
function messageText(message: SessionMessage): string {
  const content = message["content"];
  if (typeof content === "string") return content;
  if (!Array.isArray(content)) return "";
  return content
    .map((part: unknown) => {
      if (typeof part !== "object" || part === null) return "";
      const { type, text } = part as { type?: unknown; text?: unknown };
      return type === "text" && typeof text === "string" ? text : "";
    })
    .filter((text) => text !== "")
    .join("\n");
}

function truncateChars(text: string, limit: number): string {
  return text.length > limit ? `${text.slice(0, limit - 1).trimEnd()}…` : text;
}

/** The first lines of a reply (blank lines dropped), bounded in lines and characters. */
function replyExcerpt(text: string): string[] {
  const lines = text
    .split("\n")
    .map((line) => line.trimEnd())
    .filter((line) => line.trim() !== "");
  const kept = lines.slice(0, replyLineLimit);
  const excerpt = truncateChars(kept.join("\n"), replyCharLimit).split("\n");
  const last = excerpt.length - 1;
  if (lines.length > kept.length && !(excerpt[last] ?? "").endsWith("…")) {
    excerpt[last] = `${excerpt[last] ?? ""} …`;
  }
  return excerpt;
}

/**
 * What a resumed chat shows before its prompt: the last message the person sent and the
 * agent's reply to it, shortened so the recap fits on a screen. Undefined when the session has
 * no exchange yet.
 */
export function formatRecap(
  messages: readonly SessionMessage[],
  agentName: string,
): string | undefined {
  const lastUser = messages.findLastIndex((message) => message.role === "user");
  if (lastUser === -1) return undefined;
  const userMessage = messages[lastUser];
  const userText = userMessage === undefined ? "" : messageText(userMessage);
  const reply = messages
    .slice(lastUser + 1)
    .filter((message) => message.role === "assistant")
    .map(messageText)
    .filter((text) => text.trim() !== "")
    .at(-1);
  const lines = [
    "Last exchange:",
    `  you › ${truncateChars(userText.replace(/\s+/g, " ").trim(), userLimit)}`,
  ];
  const excerpt = reply === undefined ? ["(no reply yet)"] : replyExcerpt(reply);
  lines.push(
    `  ${agentName} › ${excerpt[0] ?? ""}`,
    ...excerpt.slice(1).map((line) => `    ${line}`),
  );
  return lines.join("\n");
}
