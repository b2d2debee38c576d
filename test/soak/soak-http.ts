import { readSse } from "../support/sse-client.ts";

/** What one chat request produced, read from its UI message stream. */
export interface ChatOutcome {
  status: number;
  /** The turn number of the `finish` chunk; undefined when the stream ended without one. */
  turn: number | undefined;
  text: string;
  /** The raw stream (or error body), for leak checks. */
  raw: string;
  errorCode?: string;
}

export function bearer(token: string): Record<string, string> {
  return { authorization: `Bearer ${token}` };
}

/** One chat request as `useChat` makes it; the reply read to its end, or until `timeoutMs`. */
export async function chat(
  apiUrl: string,
  token: string,
  agentId: string,
  chatId: string,
  messageId: string,
  text: string,
  timeoutMs: number,
): Promise<ChatOutcome> {
  const response = await fetch(`${apiUrl}/api/chat/${agentId}`, {
    method: "POST",
    headers: { ...bearer(token), "content-type": "application/json" },
    body: JSON.stringify({
      id: chatId,
      messages: [{ id: messageId, role: "user", parts: [{ type: "text", text }] }],
      trigger: "submit-message",
    }),
    signal: AbortSignal.timeout(timeoutMs),
  });
  if (!response.ok || response.body === null) {
    const raw = await response.text();
    let errorCode: string | undefined;
    try {
      errorCode = (JSON.parse(raw) as { error?: { code?: string } }).error?.code;
    } catch {
      errorCode = undefined;
    }
    return {
      status: response.status,
      turn: undefined,
      text: "",
      raw,
      ...(errorCode === undefined ? {} : { errorCode }),
    };
  }
  let raw = "";
  let replyText = "";
  let turn: number | undefined;
  try {
    for await (const event of readSse(response.body)) {
      raw += `${event.data}\n`;
      if (event.data === "[DONE]") break;
      const chunk = JSON.parse(event.data) as {
        type: string;
        delta?: string;
        messageMetadata?: { turn?: number };
      };
      if (chunk.type === "text-delta") replyText += chunk.delta ?? "";
      if (chunk.type === "finish") turn = chunk.messageMetadata?.turn;
    }
  } catch {
    // Timed out or cut: `turn` stays undefined, which the caller counts as a lost reply.
  }
  return { status: response.status, turn, text: replyText, raw };
}

export async function request(
  apiUrl: string,
  path: string,
  init: RequestInit & { token?: string } = {},
): Promise<{ status: number; body: string; headers: Headers }> {
  const { token, ...rest } = init;
  const response = await fetch(`${apiUrl}${path}`, {
    ...rest,
    headers: {
      ...(token === undefined ? {} : bearer(token)),
      ...(rest.headers as Record<string, string> | undefined),
    },
    signal: AbortSignal.timeout(30_000),
  });
  return { status: response.status, body: await response.text(), headers: response.headers };
}
