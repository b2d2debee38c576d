import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { workflowIdFor } from "../../src/session/index.ts";
import { shippedAgent } from "../support/shipped-agents.ts";
import { recordHistory } from "../support/history.ts";
import { uniqueId, useSessionEnv } from "../support/temporal-env.ts";

const general = shippedAgent("general");

describe("message delivery", () => {
  const session = useSessionEnv();

  it("processes the same messageId once, answering both callers with the same result", async () => {
    const sessionId = uniqueId("dedupe");
    const first = await session.env.sessions.sendWithStart(
      { template: general, sessionId },
      "hello there",
      "same-id",
    );
    const again = await session.env.sessions.send(sessionId, "hello there", "same-id");
    await session.env.sessions.post(sessionId, "hello there", "same-id");
    assert.deepEqual(again, first);
    const state = await session.env.sessions.state(sessionId);
    assert.equal(state.turn, 1);
    const users = (await session.env.sessions.history(sessionId)).filter(
      (message) => message.role === "user",
    );
    assert.equal(users.length, 1);
  });

  it("answers two messages sent at once, one turn each, in arrival order", async () => {
    const sessionId = uniqueId("concurrent");
    await session.env.sessions.start({ template: general, sessionId });
    const [a, b] = await Promise.all([
      session.env.sessions.send(sessionId, "first question", "a"),
      session.env.sessions.send(sessionId, "second question", "b"),
    ]);
    assert.deepEqual([a.turn, b.turn].sort(), [1, 2]);
    const users = (await session.env.sessions.history(sessionId)).filter(
      (message) => message.role === "user",
    );
    const order = users.map((message) => message.content);
    const expected =
      a.turn === 1 ? ["first question", "second question"] : ["second question", "first question"];
    assert.deepEqual(order, expected);
    const { events } = await session.env.sessions.events(sessionId, 0);
    const turns = events.flatMap(({ event }) =>
      event.type === "turn_started" || event.type === "turn_finished"
        ? [`${event.type}:${event.turn}`]
        : [],
    );
    assert.deepEqual(turns, [
      "turn_started:1",
      "turn_finished:1",
      "turn_started:2",
      "turn_finished:2",
    ]);
    await recordHistory(session.env.client, workflowIdFor(sessionId), "two-messages");
  });

  it("rejects empty and oversized messages in the update validator, writing nothing", async () => {
    const sessionId = uniqueId("reject");
    await session.env.sessions.start({ template: general, sessionId });
    await assert.rejects(session.env.sessions.send(sessionId, "   ", "e1"), /the message is empty/);
    await assert.rejects(
      session.env.sessions.send(sessionId, "x".repeat(40_000), "e2"),
      /longer than 32000 characters/,
    );
    const state = await session.env.sessions.state(sessionId);
    assert.equal(state.turn, 0);
    const history = await session.env.client.workflow
      .getHandle(workflowIdFor(sessionId))
      .fetchHistory();
    const updateEvents = (history.events ?? []).filter(
      (event) => event.workflowExecutionUpdateAcceptedEventAttributes,
    );
    assert.equal(updateEvents.length, 0);
  });

  it("rejects messages after the session ended, and ends with the last answer delivered", async () => {
    const sessionId = uniqueId("end");
    await session.env.sessions.sendWithStart({ template: general, sessionId }, "hello", "m1");
    const final = await session.env.sessions.end(sessionId, "user closed the chat");
    assert.equal(final.ended, true);
    assert.equal(final.view.status, "ended");
    assert.equal(final.view.turn, 1);
    await assert.rejects(session.env.sessions.send(sessionId, "too late", "m2"));
  });
});
