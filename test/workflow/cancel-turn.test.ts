import assert from "node:assert/strict";
import { after, before, describe, it } from "node:test";
import { setTimeout as sleep } from "node:timers/promises";
import { z } from "zod";
import { parseAgentTemplate } from "../../src/agents/index.ts";
import { workflowIdFor, type SessionEvent } from "../../src/session/index.ts";
import type { SessionClient } from "../../src/client/index.ts";
import { createToolRegistry, defineTool, type ToolRegistry } from "../../src/tools/index.ts";
import {
  fakeProviderConfig,
  startFakeOpenAIServer,
  type FakeOpenAIServer,
} from "../support/fake-openai-server.ts";
import proto from "@temporalio/proto";
import { fetchHistory, recordHistory } from "../support/history.ts";
import { shippedAgent } from "../support/shipped-agents.ts";
import { createTestEnv, uniqueId, type TestEnv } from "../support/temporal-env.ts";

const SLOW_WORDS = Array.from({ length: 60 }, (_, index) => `word${index + 1}`).join(" ");

/** Waits until the session's event log has an event the predicate accepts, and returns it. */
async function eventually(
  sessions: SessionClient,
  sessionId: string,
  predicate: (event: SessionEvent) => boolean,
  timeoutMs = 30_000,
): Promise<SessionEvent> {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    if (await sessions.exists(sessionId)) {
      const { events } = await sessions.events(sessionId, 0);
      const found = events.find(({ event }) => predicate(event));
      if (found !== undefined) return found.event;
    }
    await sleep(100);
  }
  assert.fail(`no matching event in session ${sessionId} within ${timeoutMs} ms`);
}

const EventType = proto.temporal.api.enums.v1.EventType;

/** How the session's model activities ended, in order: "completed", "failed", "cancelled", …. */
function modelActivityEnds(history: Awaited<ReturnType<typeof fetchHistory>>): string[] {
  const modelScheduled = new Set<string>();
  const ends: string[] = [];
  const endings = new Map<proto.temporal.api.enums.v1.EventType, string>([
    [EventType.EVENT_TYPE_ACTIVITY_TASK_COMPLETED, "completed"],
    [EventType.EVENT_TYPE_ACTIVITY_TASK_FAILED, "failed"],
    [EventType.EVENT_TYPE_ACTIVITY_TASK_TIMED_OUT, "timed out"],
    [EventType.EVENT_TYPE_ACTIVITY_TASK_CANCELED, "cancelled"],
  ]);
  for (const event of history.events ?? []) {
    const scheduled = event.activityTaskScheduledEventAttributes;
    if (scheduled?.activityType?.name === "invokeModelStreaming") {
      modelScheduled.add(String(event.eventId));
    }
    const ending = event.eventType == null ? undefined : endings.get(event.eventType);
    if (ending === undefined) continue;
    const attributes =
      event.activityTaskCompletedEventAttributes ??
      event.activityTaskFailedEventAttributes ??
      event.activityTaskTimedOutEventAttributes ??
      event.activityTaskCanceledEventAttributes;
    if (modelScheduled.has(String(attributes?.scheduledEventId))) ends.push(ending);
  }
  return ends;
}

/** A tool that waits for its activity's cancellation (or 60 s) and says which came first. */
function slowToolRegistry(seen: { aborted: boolean }): ToolRegistry {
  const registry = createToolRegistry();
  registry.register(
    defineTool({
      name: "slow_lookup",
      category: "research",
      description: "Look something up (slowly).",
      inputSchema: z.strictObject({ query: z.string() }),
      runsLong: true,
      execute: async (_input, context) => {
        const signal = context.signal;
        await new Promise<void>((resolve) => {
          const timer = setTimeout(resolve, 60_000);
          signal?.addEventListener("abort", () => {
            seen.aborted = true;
            clearTimeout(timer);
            resolve();
          });
        });
        return { type: "lookup_result", found: "nothing, slowly" };
      },
    }),
  );
  return registry;
}

describe("cancelling a running turn", () => {
  let env: TestEnv;
  let fake: FakeOpenAIServer;
  let registry: ToolRegistry;
  const seen = { aborted: false };
  before(async () => {
    fake = await startFakeOpenAIServer();
    registry = slowToolRegistry(seen);
    env = await createTestEnv();
    await env.startWorker({ providerConfig: fakeProviderConfig(fake), toolRegistry: registry });
  });
  after(async () => {
    await env.close();
    await fake.close();
  });

  const fakeModel = { provider: "openai-compatible" as const, model: "fake-model" };

  it("stops a slow model call at once, keeps the text written so far, and answers the next message", async () => {
    fake.enqueue({ text: SLOW_WORDS, wordDelayMs: 200 }, { text: "Fine, here is the short one." });
    const sessionId = uniqueId("cancel-model");
    const template = { ...shippedAgent("general"), llm: fakeModel };
    const first = env.sessions.sendWithStart({ template, sessionId }, "Tell me a long story", "m1");
    await eventually(env.sessions, sessionId, (event) => event.type === "model_step");
    // Let a few words stream before stopping.
    await sleep(1_500);

    const started = Date.now();
    const answer = await env.sessions.cancelTurn(sessionId, { reason: "too long" });
    const cancelMs = Date.now() - started;
    assert.equal(answer.cancelled, true, answer.detail);
    assert.equal(answer.turn, 1);
    assert.equal(answer.messageId, "m1");
    assert.equal(answer.detail, "turn 1 (message m1) was cancelled");
    // The whole reply would take 12 s: the workflow stopped waiting long before that.
    assert.ok(cancelMs < 5_000, `cancel answered in ${cancelMs} ms`);

    const result = await first;
    assert.equal(result.cancelled, true);
    assert.equal(result.error, undefined);
    assert.match(result.text, /^word1 word2/);
    assert.ok(result.text.length < SLOW_WORDS.length, "only part of the reply was written");
    assert.equal((await env.sessions.state(sessionId)).status, "idle");

    // Repeating the cancel is answered the same way and cancels nothing new.
    const again = await env.sessions.cancelTurn(sessionId, { messageId: "m1" });
    assert.equal(again.cancelled, true);
    assert.equal(again.result?.text, result.text);

    const second = await env.sessions.send(sessionId, "Then a short one", "m2");
    assert.equal(second.cancelled, undefined);
    assert.equal(second.text, "Fine, here is the short one.");
    assert.equal(second.turn, 2);
    // The model saw the cut-off reply in the conversation.
    const lastRequest = fake.requests.at(-1)?.body.messages ?? [];
    const cutOff = lastRequest.find(
      (message) =>
        message.role === "assistant" &&
        typeof message.content === "string" &&
        message.content.startsWith(result.text),
    );
    assert.ok(cutOff, "the partial reply is in the next model call's messages");
    assert.match(String(cutOff.content), /stopped this reply/);

    const events = (await env.sessions.events(sessionId, 0)).events.map(({ event }) => event);
    const finished = events.find(
      (event) => event.type === "turn_finished" && event.messageId === "m1",
    );
    assert.deepEqual(finished, {
      type: "turn_finished",
      messageId: "m1",
      turn: 1,
      text: result.text,
      cancelled: true,
      cancelReason: "too long",
    });
    await recordHistory(env.client, workflowIdFor(sessionId), "cancelled-model-call");
  });

  it("closes the provider's connection when a turn is stopped mid-stream, and the model activity ends cancelled", async (t) => {
    // 150 words, one every 200 ms: 30 s of answer if nothing stops it.
    const longAnswer = Array.from({ length: 150 }, (_, index) => `w${index + 1}`).join(" ");
    fake.enqueue({ text: longAnswer, wordDelayMs: 200 });
    const sessionId = uniqueId("cancel-abort");
    const template = { ...shippedAgent("general"), llm: fakeModel };
    const first = env.sessions.sendWithStart({ template, sessionId }, "Go on and on", "m1");
    await eventually(env.sessions, sessionId, (event) => event.type === "model_step");
    await sleep(1_000);
    const request = fake.requests.at(-1);
    assert.ok(request?.stream, "the model call streams from the fake provider");

    const stoppedAt = Date.now();
    const answer = await env.sessions.cancelTurn(sessionId, { reason: "enough" });
    assert.equal(answer.cancelled, true, answer.detail);
    assert.equal((await first).cancelled, true);

    // The cancel reaches the activity with its next heartbeat; the provider's request is then
    // aborted. The worker sends a heartbeat a second (about 1 s measured; 11 s when it held
    // them back for 80 % of the 15 s heartbeat timeout): a generous bound below that.
    const deadline = stoppedAt + 8_000;
    while (request.stream.closedEarlyAt === undefined && Date.now() < deadline) await sleep(100);
    assert.ok(
      request.stream.closedEarlyAt !== undefined,
      `the provider's connection was still open ${Date.now() - stoppedAt} ms after the cancel ` +
        `(${request.stream.words} of 150 words written)`,
    );
    assert.ok(request.stream.words < 150, "the answer was not written to its end");
    t.diagnostic(
      `connection closed ${request.stream.closedEarlyAt - stoppedAt} ms after the cancel, ` +
        `${request.stream.words} of 150 words written`,
    );

    // The model activity ends as cancelled: its worker reports it, no completion is recorded.
    const workflowId = workflowIdFor(sessionId);
    let ends: string[] = [];
    const endsDeadline = Date.now() + 10_000;
    while (Date.now() < endsDeadline) {
      ends = modelActivityEnds(await fetchHistory(env.client, workflowId));
      if (ends.length > 0) break;
      await sleep(200);
    }
    assert.deepEqual(ends, ["cancelled"]);
  });

  it("cancels a slow tool's activity (the tool sees its abort signal) and runs the next message", async () => {
    seen.aborted = false;
    fake.enqueue(
      { toolCall: { name: "slow_lookup", arguments: { query: "anything" } } },
      { text: "Answered after the stop." },
    );
    const sessionId = uniqueId("cancel-tool");
    const template = parseAgentTemplate(
      {
        id: "slow-looker",
        name: "Slow looker",
        llm: fakeModel,
        tools: ["slow_lookup"],
        orchestration: { defaultStep: "Chat", steps: [{ name: "Chat" }] },
      },
      { tools: registry.catalogueEntries() },
    );
    const first = env.sessions.sendWithStart({ template, sessionId }, "Look it up", "m1");
    await eventually(env.sessions, sessionId, (event) => event.type === "tool_started");
    // A second message waits in the queue behind the running turn.
    const queued = env.sessions.send(sessionId, "Never mind, just answer", "m2");

    const answer = await env.sessions.cancelTurn(sessionId, { turn: 1 });
    assert.equal(answer.cancelled, true, answer.detail);
    const result = await first;
    assert.equal(result.cancelled, true);
    assert.deepEqual(result.toolCalls, [
      {
        toolCallId: result.toolCalls[0]?.toolCallId,
        toolName: "slow_lookup",
        status: "error",
        detail: "cancelled: the user stopped the turn",
      },
    ]);
    // The tool's activity learns of the cancel with its next reported heartbeat (the worker
    // sends at most a heartbeat a second).
    const aborted = (): boolean => seen.aborted;
    const deadline = Date.now() + 15_000;
    while (!aborted() && Date.now() < deadline) await sleep(100);
    assert.equal(seen.aborted, true, "the tool's abort signal fired");

    const next = await queued;
    assert.equal(next.text, "Answered after the stop.");
    assert.equal(next.turn, 2);
    // The stopped turn counts no tool use: the tool did not complete.
    assert.equal(next.state.toolCount, 0);
    const state = await env.sessions.state(sessionId);
    assert.equal(state.status, "idle");
    await recordHistory(env.client, workflowIdFor(sessionId), "cancelled-tool-call");
  });

  it("answers that nothing ran when no turn is running, and names a turn that already finished", async () => {
    fake.enqueue({ text: "Quick." });
    const sessionId = uniqueId("cancel-idle");
    const template = { ...shippedAgent("general"), llm: fakeModel };
    await env.sessions.sendWithStart({ template, sessionId }, "Be quick", "m1");

    const idle = await env.sessions.cancelTurn(sessionId);
    assert.deepEqual(idle, { cancelled: false, detail: "no turn is running; nothing to cancel" });
    const finished = await env.sessions.cancelTurn(sessionId, { messageId: "m1" });
    assert.equal(finished.cancelled, false);
    assert.equal(finished.detail, "turn 1 (message m1) had already finished; nothing to cancel");
    const unknown = await env.sessions.cancelTurn(sessionId, { messageId: "nope" });
    assert.equal(unknown.detail, "this session has no message nope (no turn is running)");
    const future = await env.sessions.cancelTurn(sessionId, { turn: 7 });
    assert.equal(future.detail, "turn 7 has not started (no turn is running)");
    await assert.rejects(env.sessions.cancelTurn(sessionId, { turn: -1 }), /turn: Too small/i);
  });
});
