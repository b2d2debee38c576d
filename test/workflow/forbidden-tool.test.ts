import assert from "node:assert/strict";
import { after, before, describe, it } from "node:test";
import { fileURLToPath } from "node:url";
import { loadAgent } from "../../src/agents/index.ts";
import { workflowIdFor } from "../../src/session/index.ts";
import { toolCatalogueEntries } from "../../src/tools/index.ts";
import { recordHistory, scheduledTools } from "../support/history.ts";
import { createTestEnv, uniqueId, type TestEnv } from "../support/temporal-env.ts";

const script = fileURLToPath(new URL("../fixtures/scripts/forbidden-tool.json", import.meta.url));
const reasoner = loadAgent("cognitive-reasoner", {
  agentsDirs: ["agents"],
  tools: toolCatalogueEntries,
}).template;
const template = { ...reasoner, llm: { provider: "scripted" as const, model: `script:${script}` } };

describe("a model calling a tool the step forbids", () => {
  let env: TestEnv;
  before(async () => {
    env = await createTestEnv();
    await env.startWorker();
  });
  after(async () => {
    await env.close();
  });

  it("never schedules the forbidden tool, tells the model, and the session goes on", async () => {
    const sessionId = uniqueId("forbidden");
    const first = await env.sessions.sendWithStart(
      { template, sessionId },
      "Please evaluate this plan",
      "m1",
    );
    assert.equal(first.error, undefined);
    assert.equal(first.text, "Critiqued as the orchestration required.");
    assert.deepEqual(await scheduledTools(env.client, workflowIdFor(sessionId)), ["critique"]);

    // The model's refused call and the error it received are in the conversation.
    const history = await env.sessions.history(sessionId);
    const refusal = JSON.stringify(history.filter((message) => message.role === "tool")[0]);
    assert.match(refusal, /debate/);
    assert.match(refusal, /critique/);

    const second = await env.sessions.send(sessionId, "thanks", "m2");
    assert.equal(second.text, "Second turn answered.");
    assert.equal(second.turn, 2);
    await recordHistory(env.client, workflowIdFor(sessionId), "forbidden-tool");
  });
});
