import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { shippedAgent } from "../support/shipped-agents.ts";
import { uniqueId, useSessionEnv } from "../support/temporal-env.ts";

const reasoner = shippedAgent("cognitive-reasoner");

describe("continue-as-new mid-conversation", () => {
  const session = useSessionEnv();

  it("carries state, history and a message sent during the switch; nothing is lost", async () => {
    const sessionId = uniqueId("can");
    const settings = { continueAsNewAfterEvents: 30 };
    const first = await session.env.sessions.sendWithStart(
      { template: reasoner, sessionId, settings },
      "Please evaluate plan A",
      "m1",
    );
    assert.equal(first.toolCalls.length, 3);
    // Sent while the run is switching: the signal either lands before (carried as pending) or after (new run).
    await session.env.sessions.post(sessionId, "Now compare plan A versus plan B", "m2");
    const third = await session.env.sessions.send(sessionId, "Thanks, evaluate plan C too", "m3");
    assert.equal(third.turn, 3);

    const state = await session.env.sessions.state(sessionId);
    assert.ok(state.run > 1, `expected a continue-as-new, still in run ${state.run}`);
    assert.equal(state.turn, 3);
    assert.equal(state.toolCount, 9);
    const users = (await session.env.sessions.history(sessionId))
      .filter((message) => message.role === "user")
      .map((message) => message.content);
    assert.deepEqual(users, [
      "Please evaluate plan A",
      "Now compare plan A versus plan B",
      "Thanks, evaluate plan C too",
    ]);
    const { events } = await session.env.sessions.events(sessionId, 0);
    const finished = events.flatMap(({ event }) =>
      event.type === "turn_finished" ? [event.messageId] : [],
    );
    assert.deepEqual(finished, ["m1", "m2", "m3"]);
    const offsets = events.map((entry) => entry.offset);
    assert.deepEqual(
      offsets,
      [...offsets].sort((x, y) => x - y),
      "event offsets keep increasing across runs",
    );
  });
});
