import assert from "node:assert/strict";
import { after, before, describe, it } from "node:test";
import { setTimeout as sleep } from "node:timers/promises";
import { Chat } from "@ai-sdk/react";
import { DefaultChatTransport, type UIMessage } from "ai";
import { createApiServer, type ApiServer } from "../../src/server/index.ts";
import type { CancelTurnResult, SessionView } from "../../src/session/index.ts";
import {
  fakeProviderConfig,
  startFakeOpenAIServer,
  type FakeOpenAIServer,
} from "../support/fake-openai-server.ts";
import { createTestEnv, uniqueId, type TestEnv } from "../support/temporal-env.ts";
import { slowWriterAgentsDir, textOf } from "../support/use-chat-client.ts";

const token = "cancel-token-1234";
const auth = { authorization: `Bearer ${token}` };
const SLOW = Array.from({ length: 50 }, (_, index) => `w${index + 1}`).join(" ");

describe("cancelling a turn over HTTP and from useChat", () => {
  let env: TestEnv;
  let fake: FakeOpenAIServer;
  let api: ApiServer;
  let url: string;
  before(async () => {
    fake = await startFakeOpenAIServer();
    env = await createTestEnv();
    await env.startWorker({ providerConfig: fakeProviderConfig(fake) });
    api = createApiServer({
      client: env.client,
      taskQueue: env.taskQueue,
      agentsDirs: ["agents", slowWriterAgentsDir()],
      token,
      corsOrigins: [],
    });
    ({ url } = await api.listen(0, "127.0.0.1"));
  });
  after(async () => {
    await api.close();
    await env.close();
    await fake.close();
  });

  /** A chat as `useChat` runs it: the AI SDK's Chat on its default transport. */
  const chatFor = (chatId: string) =>
    new Chat<UIMessage>({
      id: chatId,
      transport: new DefaultChatTransport<UIMessage>({
        api: `${url}/api/chat/slow-writer`,
        headers: auth,
      }),
    });

  const cancel = (chatId: string, body?: unknown, headers: Record<string, string> = auth) =>
    fetch(`${url}/api/sessions/${chatId}/cancel`, {
      method: "POST",
      headers: body === undefined ? headers : { ...headers, "content-type": "application/json" },
      ...(body === undefined ? {} : { body: JSON.stringify(body) }),
    });

  async function sessionView(chatId: string): Promise<SessionView> {
    const response = await fetch(`${url}/api/sessions/${chatId}`, { headers: auth });
    assert.equal(response.status, 200);
    return (await response.json()) as SessionView;
  }

  async function untilText(chat: Chat<UIMessage>, words: number, deadlineMs = 15_000) {
    const deadline = Date.now() + deadlineMs;
    while (Date.now() < deadline) {
      const last = chat.messages.at(-1);
      const shown = last?.role === "assistant" ? textOf(last).split(" ").filter(Boolean) : [];
      if (shown.length >= words) return;
      await sleep(50);
    }
    assert.fail(`the chat showed fewer than ${words} words within ${deadlineMs} ms`);
  }

  async function untilReady(chat: Chat<UIMessage>, deadlineMs = 15_000) {
    const deadline = Date.now() + deadlineMs;
    while (chat.status !== "ready" && Date.now() < deadline) await sleep(50);
    assert.equal(chat.status, "ready");
  }

  it("the console's stop (POST /cancel while useChat streams) ends the stream with the partial reply, and the next message is answered", async () => {
    fake.enqueue({ text: SLOW, wordDelayMs: 150 }, { text: "Short answer." });
    const chatId = uniqueId("cancel-chat");
    const chat = chatFor(chatId);
    const sending = chat.sendMessage({ text: "Write at length" });
    await untilText(chat, 3);

    const response = await cancel(chatId, { reason: "stop button" });
    assert.equal(response.status, 200);
    const answer = (await response.json()) as CancelTurnResult;
    assert.equal(answer.cancelled, true);
    assert.equal(answer.turn, 1);
    assert.equal(answer.result?.cancelled, true);
    await sending;
    await untilReady(chat);

    // useChat ends the turn by itself: the reply so far, marked as interrupted.
    const reply = chat.messages.at(-1);
    assert.ok(reply !== undefined);
    assert.equal(reply.role, "assistant");
    assert.equal(textOf(reply), answer.result.text);
    assert.match(textOf(reply), /^w1 w2 w3\b/);
    assert.ok(textOf(reply).length < SLOW.length);
    assert.deepEqual(
      { cancelled: (reply.metadata as { cancelled?: boolean }).cancelled },
      { cancelled: true },
    );
    assert.equal((await sessionView(chatId)).status, "idle");
    const timeline = await fetch(`${url}/api/sessions/${chatId}/timeline`, { headers: auth });
    const { turns } = (await timeline.json()) as { turns: { status: string; reply?: string }[] };
    assert.deepEqual(
      turns.map(({ status, reply }) => ({ status, reply })),
      [{ status: "cancelled", reply: answer.result.text }],
    );

    await chat.sendMessage({ text: "Briefly, then" });
    await untilReady(chat);
    assert.equal(
      textOf(chat.messages.at(-1) ?? { id: "", role: "assistant", parts: [] }),
      "Short answer.",
    );
  });

  it("useChat's stop() alone only stops reading: the turn is durable and finishes", async () => {
    const words = "one two three four five six seven eight";
    fake.enqueue({ text: words, wordDelayMs: 150 });
    const chatId = uniqueId("cancel-stop-only");
    const chat = chatFor(chatId);
    void chat.sendMessage({ text: "Count to eight" });
    await untilText(chat, 2);
    await chat.stop();

    const deadline = Date.now() + 20_000;
    let view = await sessionView(chatId);
    while (view.status === "running" && Date.now() < deadline) {
      await sleep(100);
      view = await sessionView(chatId);
    }
    assert.equal(view.status, "idle");
    const history = await fetch(`${url}/api/sessions/${chatId}/history`, { headers: auth });
    const { messages } = (await history.json()) as {
      messages: { role: string; content: unknown }[];
    };
    assert.deepEqual(messages.at(-1)?.content, [{ type: "text", text: words }]);
  });

  it("answers 200 with why nothing was cancelled, 400 for a bad body, 415 for a body that is not JSON, 404 for an unknown session and 409 once the session ended", async () => {
    fake.enqueue({ text: "Done." });
    const chatId = uniqueId("cancel-errors");
    const chat = chatFor(chatId);
    await chat.sendMessage({ text: "Hi" });
    await untilReady(chat);

    const idle = await cancel(chatId);
    assert.equal(idle.status, 200);
    assert.deepEqual(await idle.json(), {
      cancelled: false,
      detail: "no turn is running; nothing to cancel",
    });

    const bad = await cancel(chatId, { turn: "two", extra: 1 });
    assert.equal(bad.status, 400);
    const badBody = (await bad.json()) as { error: { code: string; message: string } };
    assert.equal(badBody.error.code, "invalid_body");
    assert.match(badBody.error.message, /turn: .*number/);
    assert.match(badBody.error.message, /extra/);

    const text = await fetch(`${url}/api/sessions/${chatId}/cancel`, {
      method: "POST",
      headers: { ...auth, "content-type": "text/plain" },
      body: "stop",
    });
    assert.equal(text.status, 415);

    const unknown = await cancel(uniqueId("nope"));
    assert.equal(unknown.status, 404);

    await env.sessions.end(chatId);
    const ended = await cancel(chatId);
    assert.equal(ended.status, 409);
    assert.equal(((await ended.json()) as { error: { code: string } }).error.code, "session_ended");
  });
});
