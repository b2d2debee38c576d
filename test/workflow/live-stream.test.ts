import assert from "node:assert/strict";
import { after, before, describe, it } from "node:test";
import { setTimeout as sleep } from "node:timers/promises";
import { StreamHub, type LiveEvent, type SessionClient } from "../../src/client/index.ts";
import { workflowIdFor } from "../../src/session/index.ts";
import {
  fakeProviderConfig,
  startFakeOpenAIServer,
  type FakeOpenAIServer,
} from "../support/fake-openai-server.ts";
import { activityAttempts, recordHistory } from "../support/history.ts";
import { createTestEnv, uniqueId, type TestEnv } from "../support/temporal-env.ts";
import { shippedAgent } from "../support/shipped-agents.ts";

/** Live events of one session until its turn for `messageId` finishes (or the time runs out). */
async function collectTurn(
  hub: StreamHub,
  sessions: SessionClient,
  sessionId: string,
  messageId: string,
  timeoutMs = 60_000,
): Promise<LiveEvent[]> {
  const seen: LiveEvent[] = [];
  const signal = AbortSignal.timeout(timeoutMs);
  // The message is sent with update-with-start: watch once the session exists.
  while (!(await sessions.exists(sessionId))) await sleep(50);
  for await (const live of hub.watch(sessionId, undefined, signal)) {
    seen.push(live);
    const { item } = live;
    if (
      item.type === "session" &&
      item.event.type === "turn_finished" &&
      item.event.messageId === messageId
    ) {
      return seen;
    }
  }
  assert.fail(`no turn_finished for ${messageId} within ${timeoutMs} ms`);
}

/** The text a viewer shows: deltas, with everything of a model step dropped at its retry marker. */
function visibleText(events: readonly LiveEvent[]): string {
  const byStep = new Map<number, string>();
  for (const { item } of events) {
    if (item.type === "model_retry") byStep.set(item.step, "");
    if (item.type === "text_delta")
      byStep.set(item.step, (byStep.get(item.step) ?? "") + item.delta);
  }
  return [...byStep.values()].join("");
}

describe("live streaming of a session", () => {
  let env: TestEnv;
  let fake: FakeOpenAIServer;
  let hub: StreamHub;
  before(async () => {
    fake = await startFakeOpenAIServer();
    env = await createTestEnv();
    await env.startWorker({ providerConfig: fakeProviderConfig(fake) });
    hub = new StreamHub(env.client);
  });
  after(async () => {
    hub.close();
    await env.close();
    await fake.close();
  });

  it("streams a tool-using turn: steps, tool calls and outputs, and text that adds up to the reply", async () => {
    const sessionId = uniqueId("live-eval");
    const reply = env.sessions.sendWithStart(
      { template: shippedAgent("cognitive-reasoner"), sessionId },
      "Please evaluate the claim that remote work improves productivity",
      "m1",
    );
    // The session exists once the update is accepted; watching then still sees the whole turn.
    const events = await collectTurn(hub, env.sessions, sessionId, "m1");
    const result = await reply;

    const items = events.map((live) => live.item);
    assert.deepEqual(
      items.flatMap((item) => (item.type === "tool_call" ? [item.toolName] : [])),
      ["critique", "debate", "reflect"],
    );
    const sessionEvents = items.flatMap((item) => (item.type === "session" ? [item.event] : []));
    assert.deepEqual(
      sessionEvents.flatMap((event) => (event.type === "tool_output" ? [event.toolName] : [])),
      ["critique", "debate", "reflect"],
    );
    assert.ok(sessionEvents.some((event) => event.type === "model_step" && event.step === 4));
    assert.ok(
      sessionEvents.some(
        (event) => event.type === "orchestration" && event.event.type === "step_entered",
      ),
    );
    assert.equal(visibleText(events), result.text);
    assert.ok(result.text.length > 0);
    // Offsets only grow.
    const offsets = events.map((live) => live.offset);
    assert.deepEqual(
      offsets,
      [...offsets].sort((a, b) => a - b),
    );
  });

  it("marks a retried model call so viewers drop its partial text, and the reply is streamed once", async () => {
    fake.enqueue(
      // Long enough to be published while it runs: a call that breaks off within one publish
      // interval shows nothing, so there is nothing for viewers to drop.
      {
        text: "First attempt that will break off in the middle of it",
        dropAfterWords: 4,
        wordDelayMs: 150,
      },
      { text: "The answer, streamed whole on the second attempt." },
    );
    const sessionId = uniqueId("live-retry");
    const template = {
      ...shippedAgent("general"),
      llm: { provider: "openai-compatible" as const, model: "fake-model" },
    };
    const reply = env.sessions.sendWithStart({ template, sessionId }, "Hello there", "m1");
    const events = await collectTurn(hub, env.sessions, sessionId, "m1");
    const result = await reply;

    assert.equal(result.error, undefined);
    assert.equal(result.text, "The answer, streamed whole on the second attempt.");
    const retryAt = events.findIndex((live) => live.item.type === "model_retry");
    assert.ok(retryAt > 0, "a model_retry marker");
    const before = events
      .slice(0, retryAt)
      .flatMap((live) => (live.item.type === "text_delta" ? [live.item.delta] : []))
      .join("");
    assert.match(before, /^First attempt/);
    assert.equal(visibleText(events), result.text);
    const attempts = await activityAttempts(env.client, workflowIdFor(sessionId));
    assert.deepEqual(
      attempts.filter((activity) => activity.type === "invokeModelStreaming"),
      [{ type: "invokeModelStreaming", attempt: 2 }],
    );
    await recordHistory(env.client, workflowIdFor(sessionId), "streamed-retry");
  });

  it("lets a viewer resume from an offset with nothing repeated and nothing missing", async () => {
    fake.enqueue({ text: "one two three four five six seven eight nine ten", wordDelayMs: 150 });
    const sessionId = uniqueId("live-resume");
    const template = {
      ...shippedAgent("general"),
      llm: { provider: "openai-compatible" as const, model: "fake-model" },
    };
    const reply = env.sessions.sendWithStart({ template, sessionId }, "Count to ten", "m1");

    // First viewer: leaves after its second text delta, mid-stream.
    while (!(await env.sessions.exists(sessionId))) await sleep(50);
    const firstPart: LiveEvent[] = [];
    const leave = new AbortController();
    let deltas = 0;
    for await (const live of hub.watch(sessionId, undefined, leave.signal)) {
      firstPart.push(live);
      if (live.item.type === "text_delta" && ++deltas === 2) leave.abort();
    }
    const lastSeen = firstPart.at(-1)?.offset;
    assert.ok(lastSeen !== undefined);
    // The same viewer comes back with its last offset (what SSE's Last-Event-ID carries).
    const rest: LiveEvent[] = [];
    for await (const live of hub.watch(sessionId, lastSeen, AbortSignal.timeout(60_000))) {
      rest.push(live);
      if (live.item.type === "session" && live.item.event.type === "turn_finished") break;
    }
    const result = await reply;
    assert.ok(rest.every((live) => live.offset > lastSeen));
    assert.equal(visibleText([...firstPart, ...rest]), result.text);
    assert.equal(result.text, "one two three four five six seven eight nine ten");
  });
});
