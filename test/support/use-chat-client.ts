import assert from "node:assert/strict";
import { mkdirSync, mkdtempSync, readFileSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { DefaultChatTransport, readUIMessageStream, type UIMessage, type UIMessageChunk } from "ai";
import { uniqueId } from "./temporal-env.ts";

/** A new user message as `useChat` sends it. */
export function userMessage(text: string, id = uniqueId("msg")): UIMessage {
  return { id, role: "user", parts: [{ type: "text", text }] };
}

export function textOf(message: UIMessage): string {
  return message.parts.flatMap((part) => (part.type === "text" ? [part.text] : [])).join("");
}

/** The last message a UI message stream builds, read with the AI SDK's own parsing. */
export async function lastMessage(stream: ReadableStream<UIMessageChunk>): Promise<UIMessage> {
  let last: UIMessage | undefined;
  for await (const message of readUIMessageStream<UIMessage>({ stream, terminateOnError: true })) {
    last = message;
  }
  assert.ok(last !== undefined, "the stream produced an assistant message");
  return last;
}

/** One chat request exactly as `useChat` makes it; the reply as `useChat` would show it. */
export async function chatAsUseChat(options: {
  url: string;
  agentId: string;
  chatId: string;
  messages: UIMessage[];
  headers?: Record<string, string>;
}): Promise<UIMessage> {
  const transport = new DefaultChatTransport<UIMessage>({
    api: `${options.url}/api/chat/${options.agentId}`,
    ...(options.headers === undefined ? {} : { headers: options.headers }),
  });
  const stream = await transport.sendMessages({
    chatId: options.chatId,
    messages: options.messages,
    trigger: "submit-message",
    messageId: undefined,
    abortSignal: undefined,
  });
  return lastMessage(stream);
}

/**
 * A folder holding the `slow-writer` agent: the shipped `general` agent on the
 * OpenAI-compatible provider, whose replies a fake OpenAI server paces.
 */
export function slowWriterAgentsDir(): string {
  const dir = mkdtempSync(join(tmpdir(), "agentdock-slow-writer-"));
  mkdirSync(join(dir, "slow-writer"));
  writeFileSync(
    join(dir, "slow-writer", "template.json"),
    JSON.stringify({
      ...(JSON.parse(readFileSync("agents/general/template.json", "utf8")) as object),
      $schema: undefined,
      id: "slow-writer",
      name: "Slow Writer",
      llm: { provider: "openai-compatible", model: "fake-model" },
    }),
  );
  return dir;
}
