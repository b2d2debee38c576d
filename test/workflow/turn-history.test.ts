import assert from "node:assert/strict";
import { before, describe, it } from "node:test";
import { defaultPayloadConverter } from "@temporalio/common";
import proto from "@temporalio/proto";
import { readSessionRecording } from "../../src/client/index.ts";
import { workflowIdFor, type TurnResult } from "../../src/session/index.ts";
import { fetchHistory, recordHistory } from "../support/history.ts";
import { shippedAgent } from "../support/shipped-agents.ts";
import { uniqueId, useSessionEnv } from "../support/temporal-env.ts";

type HistoryEvent = proto.temporal.api.history.v1.IHistoryEvent;
type Payloads = proto.temporal.api.common.v1.IPayloads | null | undefined;
const reasoner = shippedAgent("cognitive-reasoner");

function decoded(payloads: Payloads): unknown {
  const payload = payloads?.payloads?.[0];
  return payload == null ? undefined : defaultPayloadConverter.fromPayload(payload);
}

/** The recorded answers of each turn's tool availability check, in order. */
function availabilityAnswers(events: readonly HistoryEvent[]): unknown[] {
  return events.flatMap((event) => {
    const marker = event.markerRecordedEventAttributes;
    if (marker?.markerName !== "core_local_activity") return [];
    const data = decoded(marker.details?.["data"]) as { activity_type?: string } | undefined;
    return data?.activity_type === "checkToolAvailability"
      ? [decoded(marker.details?.["result"])]
      : [];
  });
}

/** Every search-attribute upsert's fields (name → value as recorded), in order. */
function upserts(events: readonly HistoryEvent[]): Record<string, unknown>[] {
  return events.flatMap((event) => {
    const fields = event.upsertWorkflowSearchAttributesEventAttributes?.searchAttributes;
    if (fields == null) return [];
    return [
      Object.fromEntries(
        Object.entries(fields.indexedFields ?? {}).map(([name, payload]) => [
          name,
          defaultPayloadConverter.fromPayload(payload),
        ]),
      ),
    ];
  });
}

/**
 * Two evaluation turns on a worker without a search provider (the agent lists `search`): what
 * each turn records beyond the conversation, which `bench turn` counts as history per turn.
 */
describe("what a turn records in history besides the conversation", () => {
  const session = useSessionEnv();
  const sessionId = uniqueId("turn-history");
  let results: TurnResult[] = [];
  let events: HistoryEvent[] = [];

  before(async () => {
    const { sessions, client } = session.env;
    const message = "Please evaluate this argument: remote work improves productivity";
    results = [
      await sessions.sendWithStart({ template: reasoner, sessionId }, message, "m1"),
      await sessions.send(sessionId, `${message}, again`, "m2"),
    ];
    events = (await fetchHistory(client, workflowIdFor(sessionId))).events ?? [];
    await recordHistory(client, workflowIdFor(sessionId), "compact-turn-records");
  });

  it("records the worker's tool availability in full at the run's first turn and as unchanged while it stays the same", () => {
    assert.deepEqual(
      results.map((result) => result.toolCalls.map((call) => call.toolName)),
      [
        ["critique", "debate", "reflect"],
        ["critique", "debate", "reflect"],
      ],
    );
    const [first, second, ...more] = availabilityAnswers(events);
    assert.equal(more.length, 0);
    assert.match(
      (first as { unavailable: Record<string, string> }).unavailable["search"] ?? "",
      /^not configured: no search provider/,
    );
    assert.deepEqual(second, { unchanged: true });
  });

  it("reads an unchanged availability answer as the turn before's in the session's recording", () => {
    assert.deepEqual(availabilityAnswers(events)[1], { unchanged: true });
    const recording = readSessionRecording(workflowIdFor(sessionId), [{ events }]);
    const turns = recording.entries.flatMap((entry) => (entry.type === "turn" ? [entry] : []));
    assert.equal(turns.length, 2);
    assert.deepEqual(Object.keys(turns[1]?.availability?.unavailable ?? {}), ["search"]);
    assert.deepEqual(turns[1]?.availability, turns[0]?.availability);
  });

  it("upserts only the search attributes that changed, each at a value it did not hold", () => {
    const held = new Map<string, string>();
    const repeated: string[] = [];
    upserts(events).forEach((fields, index) => {
      for (const [name, value] of Object.entries(fields)) {
        if (held.get(name) === JSON.stringify(value)) repeated.push(`upsert ${index + 1}: ${name}`);
        held.set(name, JSON.stringify(value));
      }
    });
    assert.deepEqual(repeated, []);
    // What Temporal holds is still the whole picture: the session idle after turn 2.
    assert.equal(held.get("SessionStatus"), JSON.stringify("idle"));
    assert.equal(held.get("TurnCount"), JSON.stringify(2));
  });

  it("replies without the unavailable tools' reasons, which the state query and withSessionFacts still give", async () => {
    const { sessions } = session.env;
    const second = results[1];
    assert.ok(second !== undefined);
    assert.equal(second.state.unavailableTools, undefined);
    assert.equal(second.state.turn, 2);
    const recorded = events.flatMap((event) => {
      const outcome = event.workflowExecutionUpdateCompletedEventAttributes?.outcome?.success;
      return outcome == null ? [] : [decoded(outcome) as TurnResult];
    });
    assert.deepEqual(
      recorded.map((result) => [result.messageId, "unavailableTools" in result.state]),
      [
        ["m1", false],
        ["m2", false],
      ],
    );
    const view = await sessions.state(sessionId);
    assert.match(view.unavailableTools?.["search"] ?? "", /^not configured: no search provider/);
    const filled = await sessions.withSessionFacts(sessionId, second);
    assert.deepEqual(filled.state, { ...second.state, unavailableTools: view.unavailableTools });
  });
});
