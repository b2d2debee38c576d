import assert from "node:assert/strict";
import { join } from "node:path";
import { after, before, describe, it } from "node:test";
import type { AgentTemplate } from "../../src/orchestration/index.ts";
import { createSearxngProvider } from "../../src/search/index.ts";
import { workflowIdFor } from "../../src/session/index.ts";
import {
  startFakeOpenAIServer,
  type FakeOpenAIServer,
  type FakeReply,
} from "../support/fake-openai-server.ts";
import { activityAttempts, scheduledTools } from "../support/history.ts";
import { shippedAgent } from "../support/shipped-agents.ts";
import { createTestEnv, uniqueId, type TestEnv } from "../support/temporal-env.ts";
import {
  eventsOf,
  isModelActivity,
  onScript,
  scratchDir,
  searchHits,
  startSearchServer,
  toolResults,
  writeScript,
  type SearchServer,
} from "./fault-support.ts";

// test/workflow/providers.test.ts covers a 429 retried before any tool, and a 400 (not retried)
// after a tool, reported as the turn's error with the next message answered. This file adds a
// transient failure after a tool (the retry must not re-run it), a retryable failure that
// outlasts the retry policy, and tools that fail: a search provider that is down, invalid input.

const reasoner = shippedAgent("cognitive-reasoner");
const planner = shippedAgent("research-planner");

function reasonerOn(server: FakeOpenAIServer): AgentTemplate {
  return {
    ...reasoner,
    llm: { provider: "openai-compatible", model: "fake-model", baseURL: `${server.url}/v1` },
  };
}

const critiqueCall: FakeReply = {
  toolCall: {
    name: "critique",
    arguments: { subject: "the plan", analysis: "**Strengths**: clear. **Issues**: costly." },
  },
};
const debateCall: FakeReply = {
  toolCall: {
    name: "debate",
    arguments: { topic: "the plan", perspectives: "**For**: fast. **Against**: risky." },
  },
};
const reflectCall: FakeReply = {
  toolCall: { name: "reflect", arguments: { topic: "the plan", reflection: "Mixed evidence." } },
};
const serverError: FakeReply = { status: 500 };

const modelAttempts = async (env: TestEnv, sessionId: string): Promise<number[]> =>
  (await activityAttempts(env.client, workflowIdFor(sessionId)))
    .filter((attempt) => isModelActivity(attempt.type))
    .map((attempt) => attempt.attempt);

describe("model and tool activities that fail", { concurrency: true }, () => {
  let env: TestEnv;
  let search: SearchServer;
  const searchRequests = new Map<string, number>();
  const servers: FakeOpenAIServer[] = [];
  const scratch = scratchDir("failing-activities");

  before(async () => {
    search = await startSearchServer((_n, query) => {
      searchRequests.set(query, (searchRequests.get(query) ?? 0) + 1);
      return query === "search is down"
        ? { status: 500, body: "<h1>Internal Server Error</h1>" }
        : { status: 200, body: searchHits };
    });
    env = await createTestEnv();
    await env.startWorker({
      providerConfig: { scripted: {}, openaiCompatible: { apiKey: "test-key" } },
      searchProvider: createSearxngProvider({ baseUrl: search.url }),
    });
  });
  after(async () => {
    await env.close();
    for (const server of servers) await server.close();
    await search.close();
    scratch.remove();
  });

  async function fakeModel(replies: FakeReply[]): Promise<FakeOpenAIServer> {
    const server = await startFakeOpenAIServer(replies);
    servers.push(server);
    return server;
  }

  it("retries a model call that fails transiently after a tool ran, without running the tool again", async () => {
    const server = await fakeModel([
      critiqueCall,
      serverError,
      debateCall,
      reflectCall,
      { text: "The plan holds up." },
    ]);
    const sessionId = uniqueId("model-transient");
    const result = await env.sessions.sendWithStart(
      { template: reasonerOn(server), sessionId },
      "Please evaluate the plan",
      "m1",
    );

    assert.equal(result.error, undefined);
    assert.equal(result.text, "The plan holds up.");
    assert.deepEqual(
      result.toolCalls.map((call) => [call.toolName, call.status]),
      [
        ["critique", "ok"],
        ["debate", "ok"],
        ["reflect", "ok"],
      ],
    );
    const workflowId = workflowIdFor(sessionId);
    assert.deepEqual(await scheduledTools(env.client, workflowId), [
      "critique",
      "debate",
      "reflect",
    ]);
    assert.deepEqual(await modelAttempts(env, sessionId), [1, 2, 1, 1]);
    // The retry sent the failed call's prompt again, unchanged.
    assert.equal(server.requests.length, 5);
    assert.deepEqual(server.requests[2]?.body.messages, server.requests[1]?.body.messages);
    const { events } = await env.sessions.events(sessionId, 0);
    assert.equal(eventsOf(events, "turn_finished").length, 1);
  });

  it("reports a model failure that outlasts the retry policy as the turn's error, keeping the tool progress for the next message", async () => {
    const server = await fakeModel([
      critiqueCall,
      serverError,
      serverError,
      serverError,
      serverError,
      serverError,
      { text: "Glad to help with something else." },
    ]);
    const sessionId = uniqueId("model-exhausted");
    const failed = await env.sessions.sendWithStart(
      { template: reasonerOn(server), sessionId },
      "Please evaluate the plan",
      "m1",
    );

    assert.match(failed.error ?? "", /HTTP 500/);
    assert.equal(failed.text, "");
    assert.deepEqual(
      failed.toolCalls.map((call) => [call.toolName, call.status]),
      [["critique", "ok"]],
    );
    // Five attempts (MODEL_ACTIVITY_MAX_ATTEMPTS) of the second call, then the turn gave up.
    assert.deepEqual(await modelAttempts(env, sessionId), [1, 5]);
    assert.equal(server.requests.length, 6);
    // The critique ran: the orchestration state counts it.
    assert.equal(failed.state.activeStep, "EvaluationMode");
    assert.equal(failed.state.sequenceIndex, 1);
    assert.equal(failed.state.toolCount, 1);
    assert.deepEqual(failed.state.recentlyUsedTools, ["critique"]);

    const next = await env.sessions.send(sessionId, "Thanks, that is all", "m2");
    assert.equal(next.error, undefined);
    assert.equal(next.text, "Glad to help with something else.");
    assert.equal(next.turn, 2);
    assert.equal(next.state.toolCount, 1);
    const { events } = await env.sessions.events(sessionId, 0);
    assert.deepEqual(
      eventsOf(events, "turn_finished").map((event) => [
        event.messageId,
        event.error !== undefined,
      ]),
      [
        ["m1", true],
        ["m2", false],
      ],
    );
  });

  it("keeps a failed turn's finished tool calls in the conversation, as the state counts them", async () => {
    const server = await fakeModel([
      critiqueCall,
      { status: 400, body: { error: { message: "refused", type: "invalid_request_error" } } },
      { text: "Glad to help with something else." },
    ]);
    const sessionId = uniqueId("model-failed-history");
    const failed = await env.sessions.sendWithStart(
      { template: reasonerOn(server), sessionId },
      "Please evaluate the plan",
      "m1",
    );
    assert.match(failed.error ?? "", /HTTP 400/);
    assert.equal(failed.state.toolCount, 1);
    const ran = toolResults(await env.sessions.history(sessionId)).map((part) => part.toolName);
    assert.deepEqual(ran, ["critique"], "the conversation holds the critique the state counts");

    await env.sessions.send(sessionId, "Thanks, that is all", "m2");
    const prompt = JSON.stringify(server.requests[2]?.body.messages);
    assert.match(prompt, /Strengths/, "the next model call sees the critique's result");
  });

  it("tells the model when the search provider keeps failing (HTTP 500), and the session goes on", async () => {
    const script = writeScript(join(scratch.dir, "search-down.json"), [
      { toolCalls: [{ toolName: "search", input: { query: "search is down" } }] },
      { text: "Search is unavailable right now." },
      { text: "Still here." },
    ]);
    const sessionId = uniqueId("tool-500");
    const result = await env.sessions.sendWithStart(
      { template: onScript(planner, script), sessionId },
      "Find sources on durable execution",
      "m1",
    );

    assert.equal(result.error, undefined);
    assert.equal(result.text, "Search is unavailable right now.");
    assert.deepEqual(
      result.toolCalls.map((call) => [call.toolName, call.status]),
      [["search", "error"]],
    );
    assert.match(result.toolCalls[0]?.detail ?? "", /HTTP 500/);
    // A 500 is retryable: the activity ran its five attempts, then the model got the error.
    const workflowId = workflowIdFor(sessionId);
    assert.deepEqual(await scheduledTools(env.client, workflowId), ["search"]);
    const attempts = await activityAttempts(env.client, workflowId);
    assert.deepEqual(
      attempts.filter((attempt) => attempt.type === "runTool").map((a) => a.attempt),
      [5],
    );
    assert.equal(searchRequests.get("search is down"), 5);
    const [searchResult, ...others] = toolResults(await env.sessions.history(sessionId));
    assert.ok(searchResult !== undefined && others.length === 0, "one tool result");
    assert.equal(searchResult.toolName, "search");
    assert.match(searchResult.output.type, /^error-/);
    assert.match(JSON.stringify(searchResult.output.value), /HTTP 500/);
    // A failed tool does not count as used: the step stays where it was.
    assert.equal(result.state.toolCount, 0);
    assert.equal(result.state.activeStep, "Gather");

    const next = await env.sessions.send(sessionId, "Try later then", "m2");
    assert.equal(next.error, undefined);
    assert.equal(next.text, "Still here.");
  });

  it("tells the model when its tool input is invalid, runs no activity for it, and the session goes on", async () => {
    const script = writeScript(join(scratch.dir, "invalid-input.json"), [
      { toolCalls: [{ toolName: "search", input: { limit: 3 } }] },
      { text: "I need a query to search." },
      { text: "Still here." },
    ]);
    const sessionId = uniqueId("tool-invalid");
    const result = await env.sessions.sendWithStart(
      { template: onScript(planner, script), sessionId },
      "Search for something",
      "m1",
    );

    assert.equal(result.error, undefined);
    assert.equal(result.text, "I need a query to search.");
    assert.deepEqual(await scheduledTools(env.client, workflowIdFor(sessionId)), []);
    const results = toolResults(await env.sessions.history(sessionId));
    assert.equal(results.length, 1);
    assert.match(results[0]?.output.type ?? "", /^error-/);
    assert.match(JSON.stringify(results[0]?.output.value), /query/);

    const next = await env.sessions.send(sessionId, "Never mind", "m2");
    assert.equal(next.error, undefined);
    assert.equal(next.text, "Still here.");
  });

  it("records a tool call with invalid input in the turn result and the events", async () => {
    const script = writeScript(join(scratch.dir, "invalid-input-record.json"), [
      { toolCalls: [{ toolName: "search", input: { limit: 3 } }] },
      { text: "I need a query to search." },
    ]);
    const sessionId = uniqueId("tool-invalid-record");
    const result = await env.sessions.sendWithStart(
      { template: onScript(planner, script), sessionId },
      "Search for something",
      "m1",
    );
    assert.deepEqual(
      result.toolCalls.map((call) => [call.toolName, call.status]),
      [["search", "error"]],
    );
    const { events } = await env.sessions.events(sessionId, 0);
    assert.deepEqual(
      eventsOf(events, "tool_finished").map((event) => [event.toolName, event.status]),
      [["search", "error"]],
    );
  });
});
