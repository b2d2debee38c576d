import assert from "node:assert/strict";
import { fileURLToPath } from "node:url";
import { after, before, describe, it } from "node:test";
import { loadTemplateFile } from "../../src/agents/index.ts";
import type { OrchestrationEvent } from "../../src/orchestration/index.ts";
import { toolCatalogueEntries } from "../../src/tools/index.ts";
import { createTestEnv, uniqueId, type TestEnv } from "../support/temporal-env.ts";

// An AgentDock template naming tools this project does not have (`pubmed_search`) loads with a
// warning; a step whose sequence needs them must never hold the session: the worker reports them
// "not installed" and the step is skipped, saying so.

const file = fileURLToPath(
  new URL("../fixtures/agentdock/clinical-reasoner/template.json", import.meta.url),
);

describe("an AgentDock agent whose step needs tools no worker has", () => {
  let env: TestEnv;
  before(async () => {
    env = await createTestEnv();
    await env.startWorker();
  });
  after(() => env.close());

  it("skips that step with the reason 'not installed' and answers from the default step", async () => {
    const loaded = loadTemplateFile(file, toolCatalogueEntries);
    assert.ok(loaded.missingTools.includes("pubmed_search"));
    // The scripted model instead of the fixture's provider: the test is about the tools.
    const template = { ...loaded.template, llm: { provider: "scripted" as const, model: "auto" } };
    const sessionId = uniqueId("agentdock-missing");
    const result = await env.sessions.sendWithStart(
      { template, sessionId },
      "Think through the differential for chest pain",
      "m1",
    );
    assert.equal(result.error, undefined);
    assert.ok(result.text.length > 0);
    assert.ok(result.toolCalls.some((call) => call.toolName === "think" && call.status === "ok"));
    assert.notEqual(result.state.activeStep, "Literature");

    const { events } = await env.sessions.events(sessionId, 0);
    const orchestration = events.flatMap(({ event }): OrchestrationEvent[] =>
      event.type === "orchestration" ? [event.event] : [],
    );
    const skipped = orchestration.find(
      (event) => event.type === "step_skipped" && event.step === "Literature",
    );
    assert.ok(skipped?.type === "step_skipped", JSON.stringify(orchestration));
    assert.match(skipped.reason, /not installed/);
    assert.ok(
      !orchestration.some((event) => event.type === "step_entered" && event.step === "Literature"),
    );
    assert.ok(!result.toolCalls.some((call) => call.toolName.startsWith("pubmed")));
  });
});
