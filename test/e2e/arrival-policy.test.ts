import assert from "node:assert/strict";
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { after, before, describe, it } from "node:test";
import { setTimeout as sleep } from "node:timers/promises";
import { DefaultChatTransport, type UIMessage } from "ai";
import { z } from "zod";
import { createApiServer, type ApiServer } from "../../src/server/index.ts";
import { workflowIdFor, type SessionEvent } from "../../src/session/index.ts";
import { createToolRegistry, defineTool, type ToolRegistry } from "../../src/tools/index.ts";
import {
  fakeProviderConfig,
  startFakeOpenAIServer,
  type FakeOpenAIServer,
} from "../support/fake-openai-server.ts";
import { recordHistory } from "../support/history.ts";
import { createTestEnv, uniqueId, type TestEnv } from "../support/temporal-env.ts";
import { lastMessage, textOf, userMessage } from "../support/use-chat-client.ts";

const SLOW = Array.from({ length: 40 }, (_, index) => `word${index + 1}`).join(" ");
const policies = ["queue", "steer", "interrupt", "reject"] as const;

/**
 * A tool that takes 3 s, or `seconds` (or until its activity is cancelled), so a message can
 * arrive during it. Cancellation reaches it with a heartbeat, which the worker may hold back
 * for up to 8 s: a tool that should see it runs longer than that.
 */
function slowToolRegistry(seen: { aborted: number }): ToolRegistry {
  const registry = createToolRegistry();
  registry.register(
    defineTool({
      name: "slow_lookup",
      category: "research",
      description: "Look something up (slowly).",
      inputSchema: z.strictObject({ query: z.string(), seconds: z.number().optional() }),
      runsLong: true,
      execute: async (input, context) => {
        await new Promise<void>((resolve) => {
          const timer = setTimeout(resolve, (input.seconds ?? 3) * 1000);
          context.signal?.addEventListener("abort", () => {
            seen.aborted += 1;
            clearTimeout(timer);
            resolve();
          });
        });
        return { type: "lookup_result", found: "the slow answer" };
      },
    }),
  );
  return registry;
}

/** One agent per policy: the fake OpenAI-compatible model, the slow tool. */
function writePolicyAgents(dir: string): void {
  for (const policy of policies) {
    mkdirSync(join(dir, `arrival-${policy}`), { recursive: true });
    writeFileSync(
      join(dir, `arrival-${policy}`, "template.json"),
      JSON.stringify({
        id: `arrival-${policy}`,
        name: `Arrival ${policy}`,
        llm: { provider: "openai-compatible", model: "fake-model" },
        tools: ["slow_lookup"],
        session: { arrivalPolicy: policy },
        orchestration: { defaultStep: "Chat", steps: [{ name: "Chat" }] },
      }),
    );
  }
}

describe("what a message arriving during a turn does (session.arrivalPolicy), over HTTP", () => {
  const agentsDir = mkdtempSync(join(tmpdir(), "agentdock-arrival-"));
  const seen = { aborted: 0 };
  let env: TestEnv;
  let fake: FakeOpenAIServer;
  let api: ApiServer;
  let url: string;
  before(async () => {
    writePolicyAgents(agentsDir);
    const registry = slowToolRegistry(seen);
    fake = await startFakeOpenAIServer();
    env = await createTestEnv();
    await env.startWorker({ providerConfig: fakeProviderConfig(fake), toolRegistry: registry });
    api = createApiServer({
      client: env.client,
      taskQueue: env.taskQueue,
      agentsDirs: ["agents", agentsDir],
      tools: registry.catalogueEntries(),
    });
    ({ url } = await api.listen(0, "127.0.0.1"));
  });
  after(async () => {
    await api.close();
    await env.close();
    await fake.close();
    rmSync(agentsDir, { recursive: true, force: true });
  });

  /** One chat message exactly as useChat sends it; resolves with the reply useChat shows. */
  async function chat(policy: string, chatId: string, text: string, id: string) {
    const transport = new DefaultChatTransport<UIMessage>({
      api: `${url}/api/chat/arrival-${policy}`,
    });
    const stream = await transport.sendMessages({
      chatId,
      messages: [userMessage(text, id)],
      trigger: "submit-message",
      messageId: undefined,
      abortSignal: undefined,
    });
    return lastMessage(stream);
  }

  const turnOf = (reply: UIMessage) => (reply.metadata as { turn: number }).turn;
  const cancelledOf = (reply: UIMessage) => (reply.metadata as { cancelled?: true }).cancelled;

  async function events(chatId: string): Promise<SessionEvent[]> {
    return (await env.sessions.events(chatId, 0)).events.map(({ event }) => event);
  }

  /** Waits until the session's events show the phase a message is timed into. */
  async function reached(chatId: string, phase: "model call" | "tool call"): Promise<void> {
    const deadline = Date.now() + 20_000;
    while (Date.now() < deadline) {
      if (await env.sessions.exists(chatId)) {
        const log = await events(chatId);
        if (phase === "tool call" && log.some((event) => event.type === "tool_started")) return;
        // Mid model call: its text has started streaming.
        if (phase === "model call" && log.some((event) => event.type === "model_step")) {
          await sleep(800);
          return;
        }
      }
      await sleep(50);
    }
    assert.fail(`session ${chatId} never reached its ${phase}`);
  }

  it("queue (the default): a message sent during the model call waits and is answered as the next turn", async () => {
    fake.enqueue({ text: SLOW, wordDelayMs: 60 }, { text: "Second turn." });
    const chatId = uniqueId("arrive-queue");
    const first = chat("queue", chatId, "Write at length", "m1");
    await reached(chatId, "model call");
    const second = await chat("queue", chatId, "And then?", "m2");
    const firstReply = await first;
    assert.equal(textOf(firstReply), SLOW);
    assert.equal(turnOf(firstReply), 1);
    assert.equal(textOf(second), "Second turn.");
    assert.equal(turnOf(second), 2);
  });

  it("steer, during a tool call (between model calls): the message joins the turn before its next model call, and both are answered by that turn", async () => {
    fake.enqueue(
      { toolCall: { name: "slow_lookup", arguments: { query: "trains" } } },
      { text: "Looked it up, and noted Paris." },
    );
    const chatId = uniqueId("arrive-steer-tool");
    const first = chat("steer", chatId, "Look up trains", "m1");
    await reached(chatId, "tool call");
    const second = chat("steer", chatId, "Only to Paris, please", "m2");
    const [firstReply, secondReply] = await Promise.all([first, second]);
    assert.equal(textOf(firstReply), "Looked it up, and noted Paris.");
    assert.equal(textOf(secondReply), "Looked it up, and noted Paris.");
    assert.equal(turnOf(firstReply), 1);
    assert.equal(turnOf(secondReply), 1);

    // The model's second call saw the message after the tool's result.
    const messages = fake.requests.at(-1)?.body.messages ?? [];
    const roles = messages.map((message) => message.role);
    assert.deepEqual(roles.slice(-4), ["user", "assistant", "tool", "user"]);
    assert.equal(messages.at(-1)?.content, "Only to Paris, please");
    const log = await events(chatId);
    assert.ok(
      log.some(
        (event) => event.type === "message_steered" && event.messageId === "m2" && event.turn === 1,
      ),
    );
    const history = await env.sessions.history(chatId);
    assert.deepEqual(
      history.map((message) => message.role),
      ["user", "assistant", "tool", "user", "assistant"],
    );
    assert.equal((await env.sessions.state(chatId)).turn, 1);
    await recordHistory(env.client, workflowIdFor(chatId), "steered-message");
  });

  it("steer, during the model call that would have ended the turn: the model is called once more with the message", async () => {
    fake.enqueue({ text: SLOW, wordDelayMs: 60 }, { text: "Shorter, as you asked." });
    const chatId = uniqueId("arrive-steer-model");
    const first = chat("steer", chatId, "Write at length", "m1");
    await reached(chatId, "model call");
    const requestsBefore = fake.requests.length;
    const second = chat("steer", chatId, "Make it shorter", "m2");
    const [firstReply, secondReply] = await Promise.all([first, second]);
    assert.equal(fake.requests.length, requestsBefore + 1);
    const last = fake.requests.at(-1)?.body.messages ?? [];
    assert.deepEqual(
      last.slice(-2).map((message) => message.role),
      ["assistant", "user"],
    );
    assert.equal(last.at(-1)?.content, "Make it shorter");
    assert.equal(turnOf(firstReply), 1);
    assert.equal(turnOf(secondReply), 1);
    assert.equal(textOf(secondReply), "Shorter, as you asked.");
    assert.ok(textOf(firstReply).endsWith("Shorter, as you asked."));
  });

  it("interrupt, during the model call: the running turn is cancelled with its partial reply and the new message is answered next", async () => {
    fake.enqueue({ text: SLOW, wordDelayMs: 100 }, { text: "Answering the new one." });
    const chatId = uniqueId("arrive-interrupt-model");
    const first = chat("interrupt", chatId, "Write at length", "m1");
    await reached(chatId, "model call");
    const second = await chat("interrupt", chatId, "Stop, answer this instead", "m2");
    const firstReply = await first;
    assert.equal(cancelledOf(firstReply), true);
    assert.match(textOf(firstReply), /^word1 word2/);
    assert.ok(textOf(firstReply).length < SLOW.length);
    assert.equal(textOf(second), "Answering the new one.");
    assert.equal(turnOf(second), 2);
    const finished = (await events(chatId)).find(
      (event) => event.type === "turn_finished" && event.messageId === "m1",
    );
    assert.ok(finished?.type === "turn_finished");
    assert.equal(finished.cancelReason, "interrupted by message m2");
    await recordHistory(env.client, workflowIdFor(chatId), "interrupted-turn");
  });

  it("interrupt, during a tool call: the tool's activity is cancelled and the new message is answered", async () => {
    fake.enqueue(
      { toolCall: { name: "slow_lookup", arguments: { query: "weather", seconds: 30 } } },
      { text: "Forget the weather; here is the new answer." },
    );
    const abortedBefore = seen.aborted;
    const chatId = uniqueId("arrive-interrupt-tool");
    const first = chat("interrupt", chatId, "Look up the weather", "m1");
    await reached(chatId, "tool call");
    const second = await chat("interrupt", chatId, "Never mind that", "m2");
    const firstReply = await first;
    assert.equal(cancelledOf(firstReply), true);
    assert.equal(textOf(second), "Forget the weather; here is the new answer.");
    assert.equal(turnOf(second), 2);
    const deadline = Date.now() + 20_000;
    while (seen.aborted === abortedBefore && Date.now() < deadline) await sleep(100);
    assert.equal(seen.aborted, abortedBefore + 1, "the tool saw its cancellation");
  });

  it("reject, during the model call and during a tool call: 409 turn_in_progress saying why and what to do; accepted once the turn is answered", async () => {
    fake.enqueue(
      { toolCall: { name: "slow_lookup", arguments: { query: "x" } } },
      { text: SLOW, wordDelayMs: 60 },
      { text: "Now I can answer." },
    );
    const chatId = uniqueId("arrive-reject");
    const first = chat("reject", chatId, "Look it up and write", "m1");
    const post = () =>
      fetch(`${url}/api/chat/arrival-reject`, {
        method: "POST",
        headers: { "content-type": "application/json" },
        body: JSON.stringify({ id: chatId, messages: [userMessage("Me too", "m2")] }),
      });
    for (const phase of ["tool call", "model call"] as const) {
      if (phase === "tool call") await reached(chatId, phase);
      else {
        // The second model call (after the tool) is streaming.
        const deadline = Date.now() + 20_000;
        while (
          !(await events(chatId)).some((event) => event.type === "model_step" && event.step === 2)
        ) {
          assert.ok(Date.now() < deadline, "the second model call started");
          await sleep(50);
        }
        await sleep(500);
      }
      const refused = await post();
      assert.equal(refused.status, 409, phase);
      const body = (await refused.json()) as { error: { code: string; message: string } };
      assert.equal(body.error.code, "turn_in_progress");
      assert.match(body.error.message, /busy with turn 1 \(message m1\)/);
      assert.match(body.error.message, /arrivalPolicy is "reject"/);
      assert.match(body.error.message, /send the message again once that turn is answered/);
    }
    assert.equal(textOf(await first), SLOW);
    const accepted = await chat("reject", chatId, "Me too", "m2");
    assert.equal(textOf(accepted), "Now I can answer.");
    assert.equal(turnOf(accepted), 2);
  });
});
