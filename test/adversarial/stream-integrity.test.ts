import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { defaultPayloadConverter } from "@temporalio/common";
import { WorkflowStreamClient } from "@temporalio/workflow-streams/client";
import { encodePayloadWire } from "@temporalio/workflow-streams/workflow";
import { StreamHub, type LiveItem } from "../../src/client/index.ts";
import { MODEL_PARTS_TOPIC, SESSION_EVENTS_TOPIC, workflowIdFor } from "../../src/session/index.ts";
import { countEvents, eventsOf, waitFor, within } from "../faults/fault-support.ts";
import { shippedAgent } from "../support/shipped-agents.ts";
import { uniqueId, useSessionEnv } from "../support/temporal-env.ts";

// Item 3 of the hardening issue: one hand-sent publish signal with a malformed payload broke
// every live viewer of the session, and a well-formed one put text and tool calls in the
// agent's mouth. Only what the session itself publishes may reach its viewers.

const general = shippedAgent("general");
const publishSignal = "__temporal_workflow_stream_publish";
const encoder = new TextEncoder();
const promptMs = 15_000;

/** A stream item whose bytes pass the wire decoding but are not JSON. */
const malformedItem = {
  topic: SESSION_EVENTS_TOPIC,
  data: encodePayloadWire({
    metadata: { encoding: encoder.encode("json/plain") },
    data: encoder.encode("{not json"),
  }),
};

describe("only the session publishes to its stream", { timeout: 120_000 }, () => {
  const session = useSessionEnv();

  it("viewers survive hand-sent publishes and never show injected text or tool calls", async () => {
    const sessionId = uniqueId("stream-guard");
    const workflowId = workflowIdFor(sessionId);
    await session.env.sessions.sendWithStart({ template: general, sessionId }, "hello", "m1");
    const hub = new StreamHub(session.env.client);
    const stop = new AbortController();
    const seen: LiveItem[] = [];
    const viewing = (async () => {
      for await (const { item } of hub.watch(sessionId, undefined, stop.signal)) seen.push(item);
    })();
    try {
      const handle = session.env.client.workflow.getHandle(workflowId);
      await handle.signal(publishSignal, {
        items: [malformedItem],
        publisher_id: "attacker",
        sequence: 1,
      });
      // Well formed, through the library's own client, on the topics the session uses.
      const injector = WorkflowStreamClient.create(session.env.client, workflowId);
      injector
        .topic(MODEL_PARTS_TOPIC)
        .publish(
          encoder.encode(JSON.stringify({ type: "text-delta", id: "t", delta: "INJECTED" })),
        );
      injector.topic(MODEL_PARTS_TOPIC).publish(
        encoder.encode(
          JSON.stringify({
            type: "tool-call",
            toolCallId: "evil",
            toolName: "search",
            input: '{"query":"INJECTED"}',
          }),
        ),
      );
      injector.topic(SESSION_EVENTS_TOPIC).publish(
        defaultPayloadConverter.toPayload({
          type: "turn_finished",
          messageId: "m9",
          turn: 9,
          text: "INJECTED",
        }),
      );
      await injector[Symbol.asyncDispose]();
      await waitFor(
        "the session's rejections",
        async () => {
          const rejected = eventsOf(
            (await session.env.sessions.events(sessionId, 0)).events,
            "message_rejected",
          ).filter((event) => event.reason.startsWith("stream publish"));
          return rejected.length >= 2 ? rejected : undefined;
        },
        promptMs,
      );

      const answer = await within(
        session.env.sessions.send(sessionId, "and now a real question", "m2"),
        promptMs,
        "the next turn",
      );
      await waitFor(
        "the viewer seeing the real turn end",
        () =>
          seen.some(
            (item) =>
              item.type === "session" &&
              item.event.type === "turn_finished" &&
              item.event.messageId === "m2",
          ) || undefined,
        promptMs,
      );
      const shown = JSON.stringify(seen);
      assert.doesNotMatch(shown, /INJECTED/, "nothing injected reaches a viewer");
      assert.match(shown, /real question/);
      assert.equal(answer.turn, 2);
      const counts = await countEvents(session.env.client, workflowId);
      assert.deepEqual(counts.taskFailures, []);
    } finally {
      stop.abort();
      await viewing;
      hub.close();
    }
  });
});
