import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { workflowIdFor } from "../../src/session/index.ts";
import { shippedAgent } from "../support/shipped-agents.ts";
import { recordHistory, scheduledTools } from "../support/history.ts";
import { uniqueId, useSessionEnv } from "../support/temporal-env.ts";

const reasoner = shippedAgent("cognitive-reasoner");

describe("a cognitive-reasoner session on a real dev server", () => {
  const session = useSessionEnv();

  it("runs critique → debate → reflect in one turn, entering the step within the turn", async () => {
    const sessionId = uniqueId("evaluate");
    const result = await session.env.sessions.sendWithStart(
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
    assert.deepEqual(await scheduledTools(session.env.client, workflowIdFor(sessionId)), [
      "critique",
      "debate",
      "reflect",
    ]);

    const { events } = await session.env.sessions.events(sessionId, 0);
    const steps = events.flatMap(({ event }) =>
      event.type === "orchestration" && event.event.type === "step_entered"
        ? [event.event.step]
        : [],
    );
    assert.deepEqual(steps, ["EvaluationMode", "DefaultMode"]);
    await recordHistory(session.env.client, workflowIdFor(sessionId), "evaluation-turn");
  });
});
