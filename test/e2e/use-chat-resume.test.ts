import assert from "node:assert/strict";
import { after, before, describe, it } from "node:test";
import { setTimeout as sleep } from "node:timers/promises";
import { DefaultChatTransport, isToolUIPart, validateUIMessages, type UIMessage } from "ai";
import { createApiServer, type ApiServer } from "../../src/server/index.ts";
import type { SessionView } from "../../src/session/index.ts";
import {
  fakeProviderConfig,
  startFakeOpenAIServer,
  type FakeOpenAIServer,
} from "../support/fake-openai-server.ts";
import { createTestEnv, uniqueId, type TestEnv } from "../support/temporal-env.ts";
import {
  lastMessage,
  slowWriterAgentsDir,
  textOf,
  userMessage,
} from "../support/use-chat-client.ts";

const token = "resume-token-1234";
const otherToken = "resume-other-5678";
const auth = { authorization: `Bearer ${token}` };

describe("useChat resume and restore over real HTTP", () => {
  let env: TestEnv;
  let fake: FakeOpenAIServer;
  let api: ApiServer;
  let url: string;
  before(async () => {
    fake = await startFakeOpenAIServer();
    env = await createTestEnv();
    await env.startWorker({ providerConfig: fakeProviderConfig(fake) });
    // A local agent on the OpenAI-compatible provider, whose replies the fake server paces.
    const localAgents = slowWriterAgentsDir();
    api = createApiServer({
      client: env.client,
      taskQueue: env.taskQueue,
      agentsDirs: ["agents", localAgents],
      token,
      tokens: [{ tenant: "other", token: otherToken }],
      corsOrigins: [],
    });
    ({ url } = await api.listen(0, "127.0.0.1"));
  });
  after(async () => {
    await api.close();
    await env.close();
    await fake.close();
  });

  const transport = (agentId: string, headers: Record<string, string> = auth) =>
    new DefaultChatTransport<UIMessage>({ api: `${url}/api/chat/${agentId}`, headers });

  async function send(agentId: string, chatId: string, messages: UIMessage[]): Promise<UIMessage> {
    const stream = await transport(agentId).sendMessages({
      chatId,
      messages,
      trigger: "submit-message",
      messageId: undefined,
      abortSignal: undefined,
    });
    return lastMessage(stream);
  }

  async function waitForRunning(chatId: string, deadlineMs: number): Promise<void> {
    const deadline = Date.now() + deadlineMs;
    while (Date.now() < deadline) {
      const response = await fetch(`${url}/api/sessions/${chatId}`, { headers: auth });
      if (response.ok && ((await response.json()) as SessionView).status === "running") return;
      await sleep(50);
    }
    assert.fail(`session ${chatId} never ran a turn`);
  }

  it("reconnecting while a slow turn runs streams that turn from its start to its finish", async () => {
    const words = "alpha beta gamma delta epsilon zeta eta theta iota kappa";
    fake.enqueue({ text: words, wordDelayMs: 120 });
    const chatId = uniqueId("resume-live");
    // The page that sent the message goes away at once (a reload): the turn runs on.
    const gone = new AbortController();
    const first = await transport("slow-writer").sendMessages({
      chatId,
      messages: [userMessage("Count in Greek")],
      trigger: "submit-message",
      messageId: undefined,
      abortSignal: gone.signal,
    });
    gone.abort();
    await first.cancel().catch(() => undefined);
    await waitForRunning(chatId, 10_000);

    const stream = await transport("slow-writer").reconnectToStream({ chatId });
    assert.ok(stream !== null, "a running turn is resumed, not answered with 204");
    const reply = await lastMessage(stream);
    assert.equal(textOf(reply), words);
    assert.equal((reply.metadata as { turn: number }).turn, 1);
  });

  it("reconnecting when no turn runs answers 204, which the AI SDK reads as no stream", async () => {
    const chatId = uniqueId("resume-idle");
    await send("general", chatId, [userMessage("Hello there")]);
    const stream = await transport("general").reconnectToStream({ chatId });
    assert.equal(stream, null);
    const raw = await fetch(`${url}/api/chat/general/${chatId}/stream`, { headers: auth });
    assert.equal(raw.status, 204);
  });

  it("reconnecting to an unknown session, or another tenant's, is a 404 alike", async () => {
    const missing = await fetch(`${url}/api/chat/general/${uniqueId("nope")}/stream`, {
      headers: auth,
    });
    assert.equal(missing.status, 404);
    const chatId = uniqueId("resume-tenant");
    await send("general", chatId, [userMessage("Mine only")]);
    const other = await fetch(`${url}/api/chat/general/${chatId}/stream`, {
      headers: { authorization: `Bearer ${otherToken}` },
    });
    assert.equal(other.status, 404);
    const code = async (response: Response) =>
      ((await response.json()) as { error: { code: string } }).error.code;
    assert.equal(await code(missing), "unknown_session");
    assert.equal(await code(other), "unknown_session");
  });

  it("serves the history as UI messages useChat restores: text, steps and tool parts", async () => {
    const chatId = uniqueId("resume-history");
    const question = "Please evaluate the claim that remote work improves productivity";
    const reply = await send("cognitive-reasoner", chatId, [userMessage(question)]);

    const response = await fetch(`${url}/api/sessions/${chatId}/history?format=ui`, {
      headers: auth,
    });
    assert.equal(response.status, 200);
    const body = (await response.json()) as { sessionId: string; messages: UIMessage[] };
    assert.equal(body.sessionId, chatId);
    const messages = await validateUIMessages<UIMessage>({ messages: body.messages });
    assert.deepEqual(
      messages.map((message) => message.role),
      ["user", "assistant"],
    );
    assert.deepEqual(messages[0]?.parts, [{ type: "text", text: question }]);
    const restored = messages[1];
    assert.ok(restored !== undefined);
    const toolParts = (message: UIMessage) =>
      message.parts.flatMap((part) =>
        isToolUIPart(part)
          ? [{ type: part.type, state: part.state, toolCallId: part.toolCallId }]
          : [],
      );
    const orchestration = (message: UIMessage) =>
      message.parts.flatMap((part) => (part.type === "data-orchestration" ? [part.data] : []));
    assert.deepEqual(toolParts(restored), toolParts(reply), "the same tool calls as streamed");
    for (const part of restored.parts) {
      if (isToolUIPart(part)) {
        assert.ok(part.input !== undefined, "each tool part keeps its input");
        if (part.state === "output-available") assert.ok(part.output !== undefined);
      }
    }
    assert.equal(
      restored.parts.filter((part) => part.type === "step-start").length,
      reply.parts.filter((part) => part.type === "step-start").length,
    );
    assert.equal(textOf(restored), textOf(reply));
    assert.ok(orchestration(reply).length > 0);
    assert.deepEqual(orchestration(restored), orchestration(reply), "the turn's step changes");
    const ids = messages.map((message) => message.id);
    assert.equal(new Set(ids).size, ids.length, "message ids are unique");
  });
});
