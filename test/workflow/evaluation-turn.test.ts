import assert from "node:assert/strict";
import { after, before, describe, it } from "node:test";
import { loadAgent } from "../../src/agents/index.ts";
import { workflowIdFor } from "../../src/session/index.ts";
import { toolCatalogueEntries } from "../../src/tools/index.ts";
import { recordHistory, scheduledTools } from "../support/history.ts";
import { createTestEnv, uniqueId, type TestEnv } from "../support/temporal-env.ts";

const reasoner = loadAgent("cognitive-reasoner", {
  agentsDirs: ["agents"],
  tools: toolCatalogueEntries,
}).template;

describe("a cognitive-reasoner session on a real dev server", () => {
  let env: TestEnv;
  before(async () => {
    env = await createTestEnv();
    await env.startWorker();
  });
  after(async () => {
    await env.close();
  });

  it("runs critique → debate → reflect in one turn, entering the step within the turn", async () => {
    const sessionId = uniqueId("evaluate");
    const result = await env.sessions.sendWithStart(
      { template: reasoner, sessionId },
      "Please evaluate the argument that remote work improves productivity",
      "m1",
    );
    assert.equal(result.error, undefined);
    assert.deepEqual(
      result.toolCalls.map((call) => [call.toolName, call.status]),
      [
        ["critique", "ok"],
        ["debate", "ok"],
        ["reflect", "ok"],
      ],
    );
    assert.equal(result.turn, 1);
    assert.equal(result.state.activeStep, "DefaultMode");
    assert.ok(result.text.length > 0);
    assert.deepEqual(await scheduledTools(env.client, workflowIdFor(sessionId)), [
      "critique",
      "debate",
      "reflect",
    ]);

    const { events } = await env.sessions.events(sessionId, 0);
    const steps = events.flatMap(({ event }) =>
      event.type === "orchestration" && event.event.type === "step_entered"
        ? [event.event.step]
        : [],
    );
    assert.deepEqual(steps, ["EvaluationMode", "DefaultMode"]);
    await recordHistory(env.client, workflowIdFor(sessionId), "evaluation-turn");
  });
});
