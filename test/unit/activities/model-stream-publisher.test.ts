import assert from "node:assert/strict";
import { test } from "node:test";
import {
  ModelStreamPublisher,
  type PartTopic,
} from "../../../activities/model-stream-publisher.ts";

const decoder = new TextDecoder();

/** A topic that keeps what it is given, decoded. */
function recordingTopic(): PartTopic & { sent: unknown[] } {
  const sent: unknown[] = [];
  return {
    sent,
    publish(value) {
      sent.push(JSON.parse(decoder.decode(value)));
    },
  };
}

// A long interval: nothing is sent by the timer during a test, only by `send` and `close`.
const INTERVAL_MS = 60_000;

test("merges consecutive text deltas of one block and hands them over on close", () => {
  const topic = recordingTopic();
  const publisher = new ModelStreamPublisher(topic, INTERVAL_MS);
  publisher.add({ type: "text-delta", id: "t", delta: "Hel" });
  publisher.add({ type: "text-delta", id: "t", delta: "lo" });
  publisher.close();
  assert.deepEqual(topic.sent, [{ type: "text-delta", id: "t", delta: "Hello" }]);
  assert.equal(publisher.sentAny, true);
});

test("a stopped call's close discards what is held back, so no late publish reaches a closed topic", () => {
  const topic = recordingTopic();
  const publisher = new ModelStreamPublisher(topic, INTERVAL_MS);
  publisher.add({ type: "text-delta", id: "t", delta: "first" });
  publisher.send();
  publisher.add({ type: "text-delta", id: "t", delta: " held back" });
  publisher.close({ discard: true });
  assert.deepEqual(topic.sent, [{ type: "text-delta", id: "t", delta: "first" }]);
});

test("a deferred call that sent nothing leaves its parts to the workflow", () => {
  const topic = recordingTopic();
  const publisher = new ModelStreamPublisher(topic, INTERVAL_MS, { deferred: true });
  publisher.add({ type: "text-delta", id: "t", delta: "short answer" });
  publisher.close();
  assert.deepEqual(topic.sent, []);
  assert.equal(publisher.sentAny, false);
});
