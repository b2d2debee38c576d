import assert from "node:assert/strict";
import { after, before, describe, it } from "node:test";
import proto from "@temporalio/proto";
import { readSessionRecording } from "../../src/client/index.ts";
import { payloadConverter } from "../../src/session/payload-converter.ts";
import { workflowIdFor } from "../../src/session/index.ts";
import {
  fakeProviderConfig,
  startFakeOpenAIServer,
  type FakeOpenAIServer,
} from "../support/fake-openai-server.ts";
import { fetchHistory, recordHistory } from "../support/history.ts";
import { shippedAgent } from "../support/shipped-agents.ts";
import { createTestEnv, uniqueId, type TestEnv } from "../support/temporal-env.ts";

type HistoryEvent = proto.temporal.api.history.v1.IHistoryEvent;
type Payload = proto.temporal.api.common.v1.IPayload;
const { EventType } = proto.temporal.api.enums.v1;
const evaluation = "Please evaluate this argument: remote work improves productivity";

function decode(payload: Payload | null | undefined): unknown {
  assert.ok(payload != null, "a payload");
  return payloadConverter.fromPayload(payload);
}

/** Each model activity's recorded input and result, in order. */
function modelCalls(events: readonly HistoryEvent[]): { input: unknown; result: unknown }[] {
  const calls = new Map<string, { input: unknown; result: unknown }>();
  for (const event of events) {
    const scheduled = event.activityTaskScheduledEventAttributes;
    if (scheduled?.activityType?.name === "invokeModelStreaming") {
      calls.set(String(event.eventId), {
        input: decode(scheduled.input?.payloads?.[0]),
        result: null,
      });
    }
    const completed = event.activityTaskCompletedEventAttributes;
    const call = calls.get(String(completed?.scheduledEventId));
    if (call !== undefined) call.result = decode(completed?.result?.payloads?.[0]);
  }
  return [...calls.values()];
}

/** The model stream parts the session's publish signals carried, as JSON objects. */
function publishedParts(events: readonly HistoryEvent[]): { type: string }[] {
  const parts: { type: string }[] = [];
  for (const event of events) {
    const signal = event.workflowExecutionSignaledEventAttributes;
    if (event.eventType !== EventType.EVENT_TYPE_WORKFLOW_EXECUTION_SIGNALED) continue;
    if (signal?.signalName !== "__temporal_workflow_stream_publish") continue;
    const input = decode(signal.input?.payloads?.[0]) as { items: { data: string }[] };
    for (const item of input.items) {
      const payload = proto.temporal.api.common.v1.Payload.decode(Buffer.from(item.data, "base64"));
      const bytes = payloadConverter.fromPayload<Uint8Array>(payload);
      parts.push(JSON.parse(Buffer.from(bytes).toString("utf8")) as { type: string });
    }
  }
  return parts;
}

/** What the evaluation turn offers at each model call: the sequence, then the default mode's tools. */
const offered = [
  ["critique"],
  ["debate"],
  ["reflect"],
  ["think", "reflect", "critique", "debate", "brainstorm", "compare"],
];

describe("what a turn's model calls record in history", () => {
  let env: TestEnv;
  let fake: FakeOpenAIServer;
  before(async () => {
    fake = await startFakeOpenAIServer();
    env = await createTestEnv();
    await env.startWorker({ providerConfig: fakeProviderConfig(fake) });
  });
  after(async () => {
    await env.close();
    await fake.close();
  });

  it("records each model call's key and offered tools, not its prompt, and the turn still decides the same", async () => {
    const template = shippedAgent("cognitive-reasoner");
    const sessionId = uniqueId("by-query");
    const result = await env.sessions.sendWithStart({ template, sessionId }, evaluation, "m1");
    assert.deepEqual(
      result.toolCalls.map((call) => call.toolName),
      ["critique", "debate", "reflect"],
    );
    const workflowId = workflowIdFor(sessionId);
    const history = await fetchHistory(env.client, workflowId);
    const calls = modelCalls(history.events ?? []);
    assert.equal(calls.length, 4);
    for (const { input } of calls) {
      assert.ok(typeof input === "object" && input !== null);
      assert.equal("options" in input, false, "no call options in the activity input");
      const serialized = JSON.stringify(input);
      assert.equal(serialized.includes("Cognitive Reasoner"), false, "no instructions");
      assert.equal(serialized.includes(evaluation), false, "no messages");
    }
    assert.deepEqual(
      calls.map(({ input }) => (input as { offeredTools: string[] }).offeredTools),
      offered,
    );
    // The recording tools read a session from its history: the offered tools are still there.
    const recording = readSessionRecording(workflowId, [history]);
    const turn = recording.entries[0];
    assert.ok(turn?.type === "turn");
    assert.deepEqual(
      turn.steps.flatMap((step) => (step.type === "model_call" ? [step.offeredTools] : [])),
      offered,
    );
    await recordHistory(env.client, workflowId, "options-by-query-turn");
  });

  it("records no publish signal for model calls that end within one publish interval: the workflow publishes their parts", async () => {
    const template = shippedAgent("cognitive-reasoner");
    const sessionId = uniqueId("live-parts-short");
    const result = await env.sessions.sendWithStart({ template, sessionId }, evaluation, "m1");
    assert.equal(result.error, undefined);
    const events = (await fetchHistory(env.client, workflowIdFor(sessionId))).events ?? [];
    // The scripted model answers at once: each call's parts go to the live stream from the
    // workflow (test/workflow/live-stream.test.ts reads them), none through a signal.
    assert.deepEqual(publishedParts(events), []);
    const calls = modelCalls(events);
    assert.equal(calls.length, 4);
    for (const { input, result: answer } of calls) {
      assert.equal((input as { deferLiveParts?: boolean }).deferLiveParts, true);
      assert.equal((answer as { livePartsPublished?: boolean }).livePartsPublished, false);
    }
  });

  it("publishes a call that streams past one interval only as the parts viewers show, deltas of one block merged", async () => {
    const words = "one two three four five six seven eight nine ten eleven twelve";
    fake.enqueue({ text: words, wordDelayMs: 100 });
    const template = {
      ...shippedAgent("general"),
      llm: { provider: "openai-compatible" as const, model: "fake-model" },
    };
    const sessionId = uniqueId("live-parts-long");
    const result = await env.sessions.sendWithStart({ template, sessionId }, "Count", "m1");
    assert.equal(result.text, words);
    const events = (await fetchHistory(env.client, workflowIdFor(sessionId))).events ?? [];
    const parts = publishedParts(events);
    assert.deepEqual([...new Set(parts.map((part) => part.type))].sort(), [
      "stream-start",
      "text-delta",
    ]);
    const deltas = parts.flatMap((part) =>
      part.type === "text-delta" ? [(part as unknown as { delta: string }).delta] : [],
    );
    assert.equal(deltas.join(""), result.text);
    // 12 words over ~1.2 s, sent every 250 ms: several sends, each merging words.
    assert.ok(deltas.length >= 2 && deltas.length < 12, `${deltas.length} deltas`);
    const [call] = modelCalls(events);
    assert.equal((call?.result as { livePartsPublished?: boolean }).livePartsPublished, true);
  });

  it("leaves the provider's copy of the request body out of each model call's recorded result", async () => {
    fake.enqueue({ text: "A plain answer from the provider." });
    const template = {
      ...shippedAgent("general"),
      llm: { provider: "openai-compatible" as const, model: "fake-model" },
    };
    const sessionId = uniqueId("no-request-body");
    const result = await env.sessions.sendWithStart({ template, sessionId }, "Hello there", "m1");
    assert.equal(result.text, "A plain answer from the provider.");
    const calls = modelCalls(
      (await fetchHistory(env.client, workflowIdFor(sessionId))).events ?? [],
    );
    assert.equal(calls.length, 1);
    const recorded = calls[0]?.result as { request?: { body?: unknown } };
    assert.equal(recorded.request?.body, undefined);
    assert.equal(
      JSON.stringify(recorded).includes("Hello there"),
      false,
      "no prompt in the result",
    );
  });
});
