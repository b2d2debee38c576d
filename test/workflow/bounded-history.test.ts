import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { setTimeout as sleep } from "node:timers/promises";
import { workflowIdFor } from "../../src/session/index.ts";
import {
  fakeProviderConfig,
  startFakeOpenAIServer,
  type FakeOpenAIServer,
} from "../support/fake-openai-server.ts";
import { recordHistory } from "../support/history.ts";
import type { TestEnv } from "../support/temporal-env.ts";
import { createTestEnv, uniqueId, useSessionEnv } from "../support/temporal-env.ts";
import { shippedAgent } from "../support/shipped-agents.ts";

/**
 * What the model received on every call, in order: the chat-completions requests of the fake
 * provider the worker talks to. Model activities no longer record their prompt in history (they
 * take it from their workflow), so the provider is where the prompt is seen.
 */
function modelPrompts(fake: FakeOpenAIServer): { role: string; content: unknown }[][] {
  return fake.requests.map(
    (request) => request.body.messages as { role: string; content: unknown }[],
  );
}

/** The session's state once its last turn, and the summary written after it, are done. */
async function settledState(env: TestEnv, sessionId: string) {
  for (let attempt = 0; attempt < 100; attempt++) {
    const state = await env.sessions.state(sessionId);
    if (state.status === "idle") return state;
    await sleep(100);
  }
  assert.fail("the session did not settle");
}

describe("bounded history: a window of recent turns plus a running summary", () => {
  const session = useSessionEnv();

  it("re-sends only the recent turns once the window slides, with the summary in the instructions", async (t) => {
    const fake = await startFakeOpenAIServer();
    const env = await createTestEnv();
    t.after(async () => {
      await env.close();
      await fake.close();
    });
    await env.startWorker({ providerConfig: fakeProviderConfig(fake) });
    // Five turns and the summaries written as the window slides, each one plain answer.
    fake.enqueue(...Array.from({ length: 12 }, (_, index) => ({ text: `Answer ${index + 1}.` })));
    const sessionId = uniqueId("bounded");
    const template = {
      ...shippedAgent("general"),
      llm: { provider: "openai-compatible" as const, model: "fake-model" },
      session: { idleTimeout: "1h", history: { recentTurns: 2, summarize: true } },
    };
    // recentTurns 2 with a slack of 1: the fourth turn makes the conversation long enough.
    for (let turn = 1; turn <= 4; turn++) {
      const result = await env.sessions.sendWithStart(
        { template, sessionId },
        `Message number ${turn}: tell me about topic ${turn}`,
        `m${turn}`,
      );
      assert.equal(result.error, undefined);
    }
    const state = await settledState(env, sessionId);
    assert.equal(state.summarizedTurns, 2);
    const history = await env.sessions.history(sessionId);
    assert.equal(history[0]?.role, "system");
    assert.match(String(history[0]["content"]), /^Summary of the 2 earlier turns: /);
    assert.deepEqual(
      history.filter((message) => message.role === "user").map((message) => message["content"]),
      ["Message number 3: tell me about topic 3", "Message number 4: tell me about topic 4"],
    );

    await env.sessions.send(sessionId, "Message number 5: and topic 5", "m5");
    const prompts = modelPrompts(fake);
    const last = prompts.at(-1);
    assert.ok(last !== undefined);
    const users = last.filter((message) => message.role === "user");
    // Turns 3 and 4 and the new message: turns 1 and 2 live only in the summary.
    assert.equal(users.length, 3);
    const system = last.find((message) => message.role === "system");
    assert.match(JSON.stringify(system?.content), /Summary of the earlier conversation/);
    assert.ok(!JSON.stringify(users).includes("Message number 1"));
    // One summary call, with the turns that left the window in its prompt.
    const summaryCalls = prompts.filter((prompt) =>
      JSON.stringify(prompt).includes("Write the updated summary"),
    );
    assert.equal(summaryCalls.length, 1);
    assert.match(JSON.stringify(summaryCalls[0]), /Message number 1[\s\S]*Message number 2/);
    await recordHistory(env.client, workflowIdFor(sessionId), "bounded-history");
  });

  it("keeps the whole conversation when summarizing is off but still bounds what is re-sent", async () => {
    const { env } = session;
    const sessionId = uniqueId("bounded-drop");
    const template = {
      ...shippedAgent("general"),
      session: { idleTimeout: "1h", history: { recentTurns: 1, summarize: false } },
    };
    for (let turn = 1; turn <= 3; turn++) {
      await env.sessions.sendWithStart({ template, sessionId }, `Turn ${turn}`, `m${turn}`);
    }
    const state = await settledState(env, sessionId);
    assert.equal(state.summarizedTurns, 2);
    const history = await env.sessions.history(sessionId);
    assert.deepEqual(
      history.filter((message) => message.role === "user").map((message) => message["content"]),
      ["Turn 3"],
    );
    assert.notEqual(history[0]?.role, "system");
  });
});
