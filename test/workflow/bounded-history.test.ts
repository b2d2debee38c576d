import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { setTimeout as sleep } from "node:timers/promises";
import type { Client } from "@temporalio/client";
import proto from "@temporalio/proto";
import { workflowIdFor } from "../../src/session/index.ts";
import { fetchHistory, recordHistory } from "../support/history.ts";
import type { TestEnv } from "../support/temporal-env.ts";
import { uniqueId, useSessionEnv } from "../support/temporal-env.ts";
import { shippedAgent } from "../support/shipped-agents.ts";

const { EventType } = proto.temporal.api.enums.v1;

interface ModelCallInput {
  options: { prompt: { role: string; content: unknown }[] };
}

/** The prompts of every model activity the session scheduled, in order. */
async function modelPrompts(
  client: Client,
  workflowId: string,
): Promise<ModelCallInput["options"]["prompt"][]> {
  const history = await fetchHistory(client, workflowId);
  return (history.events ?? []).flatMap((event) => {
    if (event.eventType !== EventType.EVENT_TYPE_ACTIVITY_TASK_SCHEDULED) return [];
    const attributes = event.activityTaskScheduledEventAttributes;
    if (!(attributes?.activityType?.name ?? "").startsWith("invokeModel")) return [];
    const data = attributes?.input?.payloads?.[0]?.data;
    if (data === undefined || data === null) return [];
    const input = JSON.parse(Buffer.from(data).toString("utf8")) as ModelCallInput;
    return [input.options.prompt];
  });
}

/** The session's state once its last turn, and the summary written after it, are done. */
async function settledState(env: TestEnv, sessionId: string) {
  for (let attempt = 0; attempt < 100; attempt++) {
    const state = await env.sessions.state(sessionId);
    if (state.status === "idle") return state;
    await sleep(100);
  }
  assert.fail("the session did not settle");
}

describe("bounded history: a window of recent turns plus a running summary", () => {
  const session = useSessionEnv();

  it("re-sends only the recent turns once the window slides, with the summary in the instructions", async () => {
    const { env } = session;
    const sessionId = uniqueId("bounded");
    const template = {
      ...shippedAgent("general"),
      session: { idleTimeout: "1h", history: { recentTurns: 2, summarize: true } },
    };
    // recentTurns 2 with a slack of 1: the fourth turn makes the conversation long enough.
    for (let turn = 1; turn <= 4; turn++) {
      const result = await env.sessions.sendWithStart(
        { template, sessionId },
        `Message number ${turn}: tell me about topic ${turn}`,
        `m${turn}`,
      );
      assert.equal(result.error, undefined);
    }
    const state = await settledState(env, sessionId);
    assert.equal(state.summarizedTurns, 2);
    const history = await env.sessions.history(sessionId);
    assert.equal(history[0]?.role, "system");
    assert.match(String(history[0]["content"]), /^Summary of the 2 earlier turns: /);
    assert.deepEqual(
      history.filter((message) => message.role === "user").map((message) => message["content"]),
      ["Message number 3: tell me about topic 3", "Message number 4: tell me about topic 4"],
    );

    await env.sessions.send(sessionId, "Message number 5: and topic 5", "m5");
    const prompts = await modelPrompts(env.client, workflowIdFor(sessionId));
    const last = prompts.at(-1);
    assert.ok(last !== undefined);
    const users = last.filter((message) => message.role === "user");
    // Turns 3 and 4 and the new message: turns 1 and 2 live only in the summary.
    assert.equal(users.length, 3);
    const system = last.find((message) => message.role === "system");
    assert.match(JSON.stringify(system?.content), /Summary of the earlier conversation/);
    assert.ok(!JSON.stringify(users).includes("Message number 1"));
    // One summary call, with the turns that left the window in its prompt.
    const summaryCalls = prompts.filter((prompt) =>
      JSON.stringify(prompt).includes("Write the updated summary"),
    );
    assert.equal(summaryCalls.length, 1);
    assert.match(JSON.stringify(summaryCalls[0]), /Message number 1[\s\S]*Message number 2/);
    await recordHistory(env.client, workflowIdFor(sessionId), "bounded-history");
  });

  it("keeps the whole conversation when summarizing is off but still bounds what is re-sent", async () => {
    const { env } = session;
    const sessionId = uniqueId("bounded-drop");
    const template = {
      ...shippedAgent("general"),
      session: { idleTimeout: "1h", history: { recentTurns: 1, summarize: false } },
    };
    for (let turn = 1; turn <= 3; turn++) {
      await env.sessions.sendWithStart({ template, sessionId }, `Turn ${turn}`, `m${turn}`);
    }
    const state = await settledState(env, sessionId);
    assert.equal(state.summarizedTurns, 2);
    const history = await env.sessions.history(sessionId);
    assert.deepEqual(
      history.filter((message) => message.role === "user").map((message) => message["content"]),
      ["Turn 3"],
    );
    assert.notEqual(history[0]?.role, "system");
  });
});
