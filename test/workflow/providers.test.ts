import assert from "node:assert/strict";
import { after, before, describe, it } from "node:test";
import { jsonSchema, streamText, tool } from "ai";
import { createModelProvider } from "../../src/llm/model-provider.ts";
import { testModelAccess } from "../support/test-model-access.ts";
import { workflowIdFor } from "../../src/session/index.ts";
import {
  offeredTools,
  startFakeOpenAIServer,
  type FakeOpenAIServer,
  type FakeReply,
} from "../support/fake-openai-server.ts";
import { activityAttempts, fetchHistory } from "../support/history.ts";
import { createTestEnv, uniqueId, type TestEnv } from "../support/temporal-env.ts";
import { shippedAgent } from "../support/shipped-agents.ts";

const apiKey = "test-key";
const reasoner = shippedAgent("cognitive-reasoner");

/** The reasoner on the OpenAI-compatible provider; without `baseURL` the worker's setting is used. */
function reasonerOn(baseURL?: string) {
  return {
    ...reasoner,
    llm: {
      provider: "openai-compatible" as const,
      model: "fake-model",
      ...(baseURL === undefined ? {} : { baseURL }),
    },
  };
}

const critiqueCall: FakeReply = {
  toolCall: {
    name: "critique",
    arguments: { subject: "remote work", analysis: "**Strengths**: focus time." },
  },
};
const evaluation: FakeReply[] = [
  critiqueCall,
  {
    toolCall: {
      name: "debate",
      arguments: { topic: "remote work", perspectives: "**For**: output. **Against**: silos." },
    },
  },
  {
    toolCall: {
      name: "reflect",
      arguments: { topic: "remote work", reflection: "The evidence is mixed." },
    },
  },
  { text: "Remote work helps focused tasks and hurts onboarding." },
];

function nth<T>(items: readonly T[], index: number): T {
  const item = items.at(index);
  assert.ok(item !== undefined, `expected an item at ${index} of ${items.length}`);
  return item;
}

/** Every string in the history, with payload bytes decoded (history JSON would show base64). */
function historyText(value: unknown): string {
  if (value instanceof Uint8Array) return Buffer.from(value).toString("utf8");
  if (typeof value === "string") return value;
  if (Array.isArray(value)) return value.map(historyText).join("\n");
  if (value !== null && typeof value === "object") {
    return Object.values(value).map(historyText).join("\n");
  }
  return "";
}

describe("sessions on a real OpenAI-compatible provider over HTTP", () => {
  let env: TestEnv;
  let fake: FakeOpenAIServer;
  const servers: FakeOpenAIServer[] = [];
  before(async () => {
    fake = await startFakeOpenAIServer();
    servers.push(fake);
    env = await createTestEnv();
    await env.startWorker({
      providerConfig: {
        scripted: {},
        openaiCompatible: { baseURL: `${fake.url}/v1`, apiKey },
      },
    });
  });
  after(async () => {
    await env.close();
    for (const server of servers) await server.close();
  });

  /** A server of its own for one test, reached through the template's `llm.baseURL`. */
  async function ownServer(replies: FakeReply[]): Promise<FakeOpenAIServer> {
    const server = await startFakeOpenAIServer(replies);
    servers.push(server);
    return server;
  }

  it("runs critique → debate → reflect, offering only the expected tool at each call", async () => {
    fake.enqueue(...evaluation);
    const sessionId = uniqueId("openai-evaluate");
    const result = await env.sessions.sendWithStart(
      { template: reasonerOn(), sessionId },
      "Please evaluate the claim that remote work improves productivity",
      "m1",
    );

    assert.equal(result.error, undefined);
    assert.equal(result.text, "Remote work helps focused tasks and hurts onboarding.");
    assert.deepEqual(
      result.toolCalls.map((call) => [call.toolName, call.status]),
      [
        ["critique", "ok"],
        ["debate", "ok"],
        ["reflect", "ok"],
      ],
    );
    assert.equal(result.state.activeStep, "DefaultMode");
    assert.ok(result.state.cumulativeTokenUsage.totalTokens > 0);

    const requests = fake.requests;
    assert.equal(requests.length, 4);
    assert.deepEqual(requests.slice(0, 3).map(offeredTools), [
      ["critique"],
      ["debate"],
      ["reflect"],
    ]);
    // After the sequence the default step offers its tools again.
    assert.deepEqual(offeredTools(nth(requests, 3)), result.state.allowedTools);
    for (const request of requests) {
      assert.equal(request.path, "/v1/chat/completions");
      assert.equal(request.headers.authorization, `Bearer ${apiKey}`);
      assert.equal(request.body.model, "fake-model");
      // Sessions stream every model call (live tokens reach viewers as the provider sends them).
      assert.equal(request.body.stream, true);
    }
    // The second call carries the first call's tool result, answered by its call id.
    const toolMessage = nth(requests, 1).body.messages.find((message) => message.role === "tool");
    assert.equal(toolMessage?.tool_call_id, "call_1");
    assert.match(JSON.stringify(toolMessage.content), /Critique/);

    const history = historyText(await fetchHistory(env.client, workflowIdFor(sessionId)));
    assert.match(history, /openai-compatible:fake-model/);
    assert.doesNotMatch(history, new RegExp(apiKey));
  });

  it("retries a 429 from the provider and answers the turn once", async () => {
    const server = await ownServer([{ status: 429 }, { text: "Hello after a short wait." }]);
    const sessionId = uniqueId("openai-429");
    const started = Date.now();
    const result = await env.sessions.sendWithStart(
      { template: reasonerOn(`${server.url}/v1`), sessionId },
      "Hello there",
      "m1",
    );

    assert.equal(result.error, undefined);
    assert.equal(result.text, "Hello after a short wait.");
    assert.equal(server.requests.length, 2);
    assert.equal(nth(server.requests, 0).headers.authorization, `Bearer ${apiKey}`);
    assert.ok(Date.now() - started >= 1_000, "the retry waits the policy's initial interval");

    const attempts = await activityAttempts(env.client, workflowIdFor(sessionId));
    assert.deepEqual(
      attempts.filter((attempt) => attempt.type === "invokeModelStreaming").map((a) => a.attempt),
      [2],
    );
    const { events } = await env.sessions.events(sessionId, 0);
    const finished = events.filter(({ event }) => event.type === "turn_finished");
    assert.equal(finished.length, 1);
  });

  it("reports a 400 as the turn's error without retrying, and the session stays usable", async () => {
    const server = await ownServer([
      critiqueCall,
      {
        status: 400,
        body: {
          error: {
            message: "Invalid 'messages': the fake server refuses this conversation",
            type: "invalid_request_error",
          },
        },
      },
      { text: "Glad to help with something else." },
    ]);
    const sessionId = uniqueId("openai-400");
    const template = reasonerOn(`${server.url}/v1`);
    const failed = await env.sessions.sendWithStart(
      { template, sessionId },
      "Please evaluate this plan",
      "m1",
    );

    assert.match(failed.error ?? "", /rejected the request \(HTTP 400\)/);
    assert.match(failed.error ?? "", /the fake server refuses this conversation/);
    assert.equal(failed.text, "");
    assert.deepEqual(
      failed.toolCalls.map((call) => [call.toolName, call.status]),
      [["critique", "ok"]],
    );
    // One request for the critique call, exactly one for the rejected call.
    assert.equal(server.requests.length, 2);
    const attempts = await activityAttempts(env.client, workflowIdFor(sessionId));
    assert.deepEqual(
      attempts.filter((attempt) => attempt.type === "invokeModelStreaming").map((a) => a.attempt),
      [1, 1],
    );

    const next = await env.sessions.send(sessionId, "Thanks, that is all", "m2");
    assert.equal(next.error, undefined);
    assert.equal(next.text, "Glad to help with something else.");
    assert.equal(next.turn, 2);
    assert.equal(server.requests.length, 3);
    assert.equal(server.pendingReplies(), 0);
  });
});

describe("the OpenAI-compatible provider streaming from the local server", () => {
  let fake: FakeOpenAIServer;
  before(async () => {
    fake = await startFakeOpenAIServer();
  });
  after(async () => {
    await fake.close();
  });

  function model() {
    return createModelProvider(
      {
        scripted: {},
        openaiCompatible: { baseURL: `${fake.url}/v1`, apiKey },
      },
      testModelAccess,
    ).languageModel("openai-compatible:fake-model");
  }

  it("streams text deltas over SSE and reports the usage of the last chunk", async () => {
    fake.enqueue({ text: "Streams arrive one word at a time." });
    const result = streamText({ model: model(), prompt: "Say something", maxRetries: 0 });
    const deltas: string[] = [];
    for await (const delta of result.textStream) deltas.push(delta);

    assert.equal(deltas.join(""), "Streams arrive one word at a time.");
    assert.ok(deltas.length >= 7, `expected a delta per word, got ${JSON.stringify(deltas)}`);
    const request = fake.requests.at(-1);
    assert.equal(request?.body.stream, true);
    assert.deepEqual(request.body.stream_options, { include_usage: true });
    const usage = await result.usage;
    assert.ok((usage.inputTokens ?? 0) > 0 && (usage.outputTokens ?? 0) > 0);
    assert.equal(await result.finishReason, "stop");
  });

  it("streams a tool call's name and arguments in pieces", async () => {
    fake.enqueue({ toolCall: { name: "lookup", arguments: { query: "durable execution" } } });
    const result = streamText({
      model: model(),
      prompt: "Look it up",
      maxRetries: 0,
      tools: {
        lookup: tool({
          description: "Looks a query up.",
          inputSchema: jsonSchema<{ query: string }>({
            type: "object",
            properties: { query: { type: "string" } },
            required: ["query"],
          }),
        }),
      },
    });

    const calls = await result.toolCalls;
    assert.deepEqual(
      calls.map((call) => [call.toolName, call.input]),
      [["lookup", { query: "durable execution" }]],
    );
    assert.equal(await result.finishReason, "tool-calls");
    assert.deepEqual(offeredTools(nth(fake.requests, -1)), ["lookup"]);
  });
});
