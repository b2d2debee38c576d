import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { fileURLToPath } from "node:url";
import { workflowIdFor } from "../../src/session/index.ts";
import { shippedAgent } from "../support/shipped-agents.ts";
import { recordHistory, scheduledTools } from "../support/history.ts";
import { uniqueId, useSessionEnv } from "../support/temporal-env.ts";

const script = fileURLToPath(new URL("../fixtures/scripts/forbidden-tool.json", import.meta.url));
const reasoner = shippedAgent("cognitive-reasoner");
const template = { ...reasoner, llm: { provider: "scripted" as const, model: `script:${script}` } };

describe("a model calling a tool the step forbids", () => {
  const session = useSessionEnv();

  it("never schedules the forbidden tool, tells the model, and the session goes on", async () => {
    const sessionId = uniqueId("forbidden");
    const first = await session.env.sessions.sendWithStart(
      { template, sessionId },
      "Please evaluate this plan",
      "m1",
    );
    assert.equal(first.error, undefined);
    assert.equal(first.text, "Critiqued as the orchestration required.");
    assert.deepEqual(await scheduledTools(session.env.client, workflowIdFor(sessionId)), [
      "critique",
    ]);

    // The model's refused call and the error it received are in the conversation.
    const history = await session.env.sessions.history(sessionId);
    const refusal = JSON.stringify(history.filter((message) => message.role === "tool")[0]);
    assert.match(refusal, /debate/);
    assert.match(refusal, /critique/);

    const second = await session.env.sessions.send(sessionId, "thanks", "m2");
    assert.equal(second.text, "Second turn answered.");
    assert.equal(second.turn, 2);
    await recordHistory(session.env.client, workflowIdFor(sessionId), "forbidden-tool");
  });
});
