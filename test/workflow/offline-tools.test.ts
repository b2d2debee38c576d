import assert from "node:assert/strict";
import { after, before, describe, it } from "node:test";
import { createSearxngProvider } from "../../src/search/index.ts";
import type { OrchestrationEvent } from "../../src/orchestration/index.ts";
import { workflowIdFor } from "../../src/session/index.ts";
import { searchHits, startSearchServer, type SearchServer } from "../faults/fault-support.ts";
import { recordHistory, scheduledTools } from "../support/history.ts";
import { shippedAgent } from "../support/shipped-agents.ts";
import { createTestEnv, uniqueId, type TestEnv } from "../support/temporal-env.ts";

const reasoner = shippedAgent("cognitive-reasoner");

async function orchestrationEvents(env: TestEnv, sessionId: string): Promise<OrchestrationEvent[]> {
  const { events } = await env.sessions.events(sessionId, 0);
  return events.flatMap(({ event }) => (event.type === "orchestration" ? [event.event] : []));
}

describe("a worker without a search provider (the quick start's offline setup)", () => {
  let env: TestEnv;
  before(async () => {
    env = await createTestEnv();
    await env.startWorker();
  });
  after(() => env.close());

  it("does not enter ResearchMode for a research request, says why in the events, and never runs search", async () => {
    const sessionId = uniqueId("offline-research");
    const first = await env.sessions.sendWithStart(
      { template: reasoner, sessionId },
      "Research the latest evidence on remote work productivity",
      "m1",
    );
    assert.equal(first.error, undefined);
    assert.ok(first.text.length > 0);
    assert.notEqual(first.state.activeStep, "ResearchMode");
    assert.match(first.text, /search is unavailable/i);
    assert.match(first.text, /SEARCH_PROVIDER=searxng/);

    const events = await orchestrationEvents(env, sessionId);
    const skipped = events.find((event) => event.type === "step_skipped");
    assert.ok(skipped?.type === "step_skipped", JSON.stringify(events));
    assert.equal(skipped.step, "ResearchMode");
    assert.equal(skipped.tool, "search");
    assert.match(skipped.reason, /not configured/);
    assert.ok(
      !events.some((event) => event.type === "step_entered" && event.step === "ResearchMode"),
    );

    // The same request again, and a follow-up: still answered, never stuck in a research step.
    const again = await env.sessions.send(sessionId, "Find out the latest evidence again", "m2");
    assert.equal(again.error, undefined);
    const evaluate = await env.sessions.send(sessionId, "Please evaluate that claim", "m3");
    assert.equal(evaluate.error, undefined);
    assert.deepEqual(
      evaluate.toolCalls.map((call) => [call.toolName, call.status]),
      [
        ["critique", "ok"],
        ["debate", "ok"],
        ["reflect", "ok"],
      ],
    );
    assert.equal(evaluate.state.activeStep, "DefaultMode");
    assert.ok(!(await scheduledTools(env.client, workflowIdFor(sessionId))).includes("search"));
    await recordHistory(env.client, workflowIdFor(sessionId), "offline-research");
  });

  it("offers only think at DebateMode's first position, whose alternatives are search or think", async () => {
    const sessionId = uniqueId("offline-debate");
    const result = await env.sessions.sendWithStart(
      { template: reasoner, sessionId },
      "Debate whether cities should ban cars",
      "m1",
    );
    assert.equal(result.error, undefined);
    assert.deepEqual(
      result.toolCalls.map((call) => call.toolName),
      ["think", "debate", "reflect"],
    );
    const events = await env.sessions.events(sessionId, 0);
    const firstStep = events.events.find(({ event }) => event.type === "model_step");
    assert.ok(firstStep?.event.type === "model_step");
    assert.deepEqual(firstStep.event.offeredTools, ["think"]);
  });
});

describe("a worker whose search provider keeps failing", () => {
  let env: TestEnv;
  let search: SearchServer;
  before(async () => {
    // 403 is SearXNG's answer when its JSON API is off: a non-retryable failure, every time.
    search = await startSearchServer(() => ({ status: 403, body: "forbidden" }));
    env = await createTestEnv();
    await env.startWorker({ searchProvider: createSearxngProvider({ baseUrl: search.url }) });
  });
  after(async () => {
    await env.close();
    await search.close();
  });

  it("releases ResearchMode to the default step after search failed twice in a row, and retries it once per later request", async () => {
    const sessionId = uniqueId("failing-search");
    const first = await env.sessions.sendWithStart(
      { template: reasoner, sessionId },
      "Research the latest evidence on remote work productivity",
      "m1",
    );
    assert.equal(first.error, undefined);
    assert.deepEqual(
      first.toolCalls.map((call) => [call.toolName, call.status]),
      [["search", "error"]],
    );

    const second = await env.sessions.send(sessionId, "Thanks, anything else?", "m2");
    assert.equal(second.error, undefined);
    assert.ok(second.text.length > 0);
    assert.equal(second.state.activeStep, "DefaultMode");
    let events = await orchestrationEvents(env, sessionId);
    const released = events.find((event) => event.type === "sequence_released");
    assert.ok(released?.type === "sequence_released", JSON.stringify(events));
    assert.deepEqual(
      [released.step, released.tool, released.failures, released.to],
      ["ResearchMode", "search", 2, "DefaultMode"],
    );
    assert.match(released.error, /HTTP 403/);

    // A later research request enters the step again and gives search one more try only.
    const third = await env.sessions.send(sessionId, "Research the sources once more", "m3");
    assert.equal(third.error, undefined);
    assert.equal(third.state.activeStep, "DefaultMode");
    events = await orchestrationEvents(env, sessionId);
    const releases = events.filter((event) => event.type === "sequence_released");
    assert.equal(releases.length, 2);
    assert.deepEqual(await scheduledTools(env.client, workflowIdFor(sessionId)), [
      "search",
      "search",
      "search",
    ]);
    await recordHistory(env.client, workflowIdFor(sessionId), "failing-search-release");
  });
});

describe("a session whose worker gets a search provider", () => {
  let env: TestEnv;
  let search: SearchServer;
  before(async () => {
    search = await startSearchServer(() => ({ status: 200, body: searchHits }));
    env = await createTestEnv();
  });
  after(async () => {
    await env.close();
    await search.close();
  });

  it("offers search again from the next turn after a worker with search takes over", async () => {
    const offline = await env.startWorker();
    const sessionId = uniqueId("search-returns");
    const first = await env.sessions.sendWithStart(
      { template: reasoner, sessionId },
      "Research the latest evidence on remote work",
      "m1",
    );
    assert.deepEqual(first.toolCalls, []);
    const afterFirst = await env.sessions.state(sessionId);
    assert.deepEqual(Object.keys(afterFirst.unavailableTools ?? {}), ["search"]);
    await offline.stop();

    await env.startWorker({ searchProvider: createSearxngProvider({ baseUrl: search.url }) });
    const second = await env.sessions.send(sessionId, "Research the latest evidence again", "m2");
    assert.equal(second.error, undefined);
    assert.deepEqual(
      second.toolCalls.map((call) => [call.toolName, call.status]),
      [
        ["search", "ok"],
        ["think", "ok"],
        ["reflect", "ok"],
      ],
    );
    assert.equal((await env.sessions.state(sessionId)).unavailableTools, undefined);
    const events = await orchestrationEvents(env, sessionId);
    assert.ok(events.some((event) => event.type === "tool_available" && event.tool === "search"));
    assert.ok(
      events.some((event) => event.type === "step_entered" && event.step === "ResearchMode"),
    );
  });
});
