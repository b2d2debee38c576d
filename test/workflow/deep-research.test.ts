import assert from "node:assert/strict";
import { after, before, describe, it } from "node:test";
import { parseAgentTemplate } from "../../src/agents/index.ts";
import type { OrchestrationEvent } from "../../src/orchestration/index.ts";
import { createSearxngProvider } from "../../src/search/index.ts";
import { workflowIdFor } from "../../src/session/index.ts";
import { toolCatalogueEntries } from "../../src/tools/index.ts";
import {
  articlePage,
  refusedUrl,
  startFakeWeb,
  type FakeWeb,
} from "../support/fake-research-web.ts";
import { recordHistory, scheduledTools } from "../support/history.ts";
import { createTestEnv, uniqueId, type TestEnv } from "../support/temporal-env.ts";

// An agent whose research step runs `deep_research` (as AgentDock's research templates do): on a
// worker with a search provider the step runs it through a turn, reading what it can and naming
// what it cannot; on a worker without one the step is skipped with the reason.

const researcher = parseAgentTemplate(
  {
    id: "researcher",
    name: "Researcher",
    llm: { provider: "scripted", model: "auto" },
    tools: ["deep_research"],
    orchestration: {
      defaultStep: "Chat",
      steps: [
        {
          name: "Research",
          conditions: [{ type: "message_regex", value: "\\bresearch\\b", flags: "i" }],
          availableTools: { allowed: ["*research*"] },
          sequence: ["deep_research"],
          resetSequenceOn: ["user_message"],
          onComplete: "default",
        },
        // Answers directly, so the turn's tool calls are the research step's alone.
        { name: "Chat", availableTools: { allowed: [] } },
      ],
    },
  },
  { tools: toolCatalogueEntries },
);

async function orchestrationEvents(env: TestEnv, sessionId: string): Promise<OrchestrationEvent[]> {
  const { events } = await env.sessions.events(sessionId, 0);
  return events.flatMap(({ event }) => (event.type === "orchestration" ? [event.event] : []));
}

describe("deep_research in an agent's research step", () => {
  let web: FakeWeb;
  let refused: string;
  let online: TestEnv;
  let offline: TestEnv;
  before(async () => {
    web = await startFakeWeb({
      "/durable": articlePage("Durable execution", [
        "Durable execution lets a workflow survive crashes of the process running it.",
      ]),
      "/broken": { status: 500, contentType: "text/html", body: "oops" },
    });
    refused = await refusedUrl("/gone");
    web.setResults([
      { title: "Durable execution", url: `${web.url}/durable`, content: "snippet" },
      { title: "Broken", url: `${web.url}/broken`, content: "snippet" },
      { title: "Gone", url: refused, content: "snippet" },
    ]);
    online = await createTestEnv();
    await online.startWorker({ searchProvider: createSearxngProvider({ baseUrl: web.url }) });
    offline = await createTestEnv();
    await offline.startWorker();
  });
  after(async () => {
    await online.close();
    await offline.close();
    await web.close();
  });

  it("runs deep_research through a turn: the report cites what it read and names what it could not reach", async () => {
    const sessionId = uniqueId("deep-research");
    const result = await online.sessions.sendWithStart(
      { template: researcher, sessionId },
      "Research durable execution for me",
      "m1",
    );
    assert.equal(result.error, undefined);
    assert.deepEqual(
      result.toolCalls.map((call) => [call.toolName, call.status]),
      [["deep_research", "ok"]],
    );
    assert.match(result.text, /deep_research\*\*: 🔬 Deep research: Research durable execution/);
    assert.equal(result.state.activeStep, "Chat");
    assert.deepEqual(await scheduledTools(online.client, workflowIdFor(sessionId)), [
      "deep_research",
    ]);
    assert.deepEqual(web.searches.slice(-1), ["Research durable execution for me"]);

    const history = JSON.stringify(await online.sessions.history(sessionId));
    assert.match(history, /Durable execution lets a workflow survive crashes[^"]*\[1\]/);
    assert.ok(history.includes(`1. [Durable execution](${web.url}/durable)`), history);
    assert.ok(history.includes(`${refused}: connection refused (ECONNREFUSED)`), history);
    assert.ok(history.includes(`${web.url}/broken: the server answered HTTP 500`), history);
    await recordHistory(online.client, workflowIdFor(sessionId), "deep-research");
  });

  it("skips the research step on a worker without a search provider, saying why, and never runs the tool", async () => {
    const sessionId = uniqueId("deep-research-offline");
    const result = await offline.sessions.sendWithStart(
      { template: researcher, sessionId },
      "Research durable execution for me",
      "m1",
    );
    assert.equal(result.error, undefined);
    assert.deepEqual(result.toolCalls, []);
    assert.notEqual(result.state.activeStep, "Research");
    assert.match(result.text, /deep_research is unavailable/i);
    assert.match(result.text, /SEARCH_PROVIDER=searxng/);
    const skipped = (await orchestrationEvents(offline, sessionId)).find(
      (event) => event.type === "step_skipped",
    );
    assert.ok(skipped?.type === "step_skipped");
    assert.deepEqual([skipped.step, skipped.tool], ["Research", "deep_research"]);
    assert.match(skipped.reason, /not configured: no search provider/);
    assert.deepEqual(await scheduledTools(offline.client, workflowIdFor(sessionId)), []);
  });
});
