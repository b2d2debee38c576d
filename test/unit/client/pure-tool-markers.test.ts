import assert from "node:assert/strict";
import { join } from "node:path";
import { describe, it } from "node:test";
import { ActivityFailure, ApplicationFailure, DefaultFailureConverter } from "@temporalio/common";
import proto from "@temporalio/proto";
import { createToolActivities } from "../../../activities/index.ts";
import { readHistoryFile } from "../../../src/cli/history-file.ts";
import { readPureToolMarker } from "../../../src/client/pure-tool-markers.ts";
import { readSessionRecording } from "../../../src/client/index.ts";
import { payloadConverter } from "../../../src/session/payload-converter.ts";
import { replayHistoriesDir } from "../../support/history.ts";

type HistoryEvent = proto.temporal.api.history.v1.IHistoryEvent;
const EventType = proto.temporal.api.enums.v1.EventType;

const { runPureTool } = createToolActivities({
  summarizeModel: () => {
    throw new Error("no model expected");
  },
});

/** A failed local activity's marker, shaped as core writes it: data, no result, the failure. */
function failedMarker(failure: proto.temporal.api.failure.v1.IFailure): HistoryEvent {
  return {
    eventType: EventType.EVENT_TYPE_MARKER_RECORDED,
    markerRecordedEventAttributes: {
      markerName: "core_local_activity",
      details: {
        data: {
          payloads: [
            payloadConverter.toPayload({
              seq: 2,
              attempt: 1,
              activity_id: "2",
              activity_type: "runPureTool",
              complete_time: { seconds: 1_795_460_289, nanos: 0 },
              backoff: null,
              original_schedule_time: { seconds: 1_795_460_288, nanos: 500_000_000 },
            }),
          ],
        },
      },
      failure,
    },
  };
}

async function invalidCritique(): Promise<ApplicationFailure> {
  const error = await runPureTool({
    tool: "critique",
    input: { subject: "x", analysis: "y", score: 3 },
    toolCallId: "call-9",
  }).then(
    () => undefined,
    (thrown: unknown) => thrown,
  );
  assert.ok(error instanceof ApplicationFailure);
  return error;
}

describe("a pure tool's local-activity marker read from history", () => {
  it("gives each recorded pure tool's name, call id and output, in order", () => {
    const { history } = readHistoryFile(join(replayHistoriesDir, "evaluation-turn.json"));
    const markers = (history.events ?? []).flatMap((event) => {
      const marker = readPureToolMarker(event, payloadConverter);
      return marker === undefined ? [] : [marker];
    });
    assert.deepEqual(
      markers.map((marker) => [marker.tool, typeof marker.output, marker.attempts]),
      [
        ["critique", "object", 1],
        ["debate", "object", 1],
        ["reflect", "object", 1],
      ],
    );
    assert.ok(markers.every((marker) => marker.toolCallId.length > 0));
  });

  it("leaves out the availability check's marker (a local activity that is no tool)", () => {
    const { history } = readHistoryFile(join(replayHistoriesDir, "evaluation-turn.json"));
    const availability = (history.events ?? []).filter(
      (event) => event.markerRecordedEventAttributes?.markerName === "core_local_activity",
    );
    assert.equal(availability.length, 4, "one availability check and three tools");
    assert.equal(
      availability.filter((event) => readPureToolMarker(event, payloadConverter) === undefined)
        .length,
      1,
    );
  });

  it("gives a failed call's tool, call id and message, bare or wrapped as an ActivityFailure", async () => {
    const converter = new DefaultFailureConverter();
    const error = await invalidCritique();
    const bare = converter.errorToFailure(error, payloadConverter);
    const wrapped = converter.errorToFailure(
      new ActivityFailure("activity failed", "runPureTool", "2", undefined, undefined, error),
      payloadConverter,
    );
    for (const failure of [bare, wrapped]) {
      const marker = readPureToolMarker(failedMarker(failure), payloadConverter);
      assert.deepEqual(
        marker && [marker.tool, marker.toolCallId, marker.output, marker.attempts, marker.closedAt],
        ["critique", "call-9", undefined, 1, "2026-11-23T18:58:09.000Z"],
      );
      assert.match(marker?.error ?? "", /score/);
    }
  });

  it("counts a failed pure tool as tool_failed in the recorded turn a fork recomputes", async () => {
    const { workflowId, history } = readHistoryFile(
      join(replayHistoriesDir, "evaluation-turn.json"),
    );
    const events = [...(history.events ?? [])];
    const first = events.findIndex(
      (event) => readPureToolMarker(event, payloadConverter) !== undefined,
    );
    const failure = new DefaultFailureConverter().errorToFailure(
      await invalidCritique(),
      payloadConverter,
    );
    events[first] = { ...failedMarker(failure), eventId: events[first]?.eventId ?? null };
    const recording = readSessionRecording(workflowId, [{ ...history, events }]);
    const turn = recording.entries[0];
    assert.ok(turn?.type === "turn");
    assert.deepEqual(
      turn.steps.filter((step) => step.type !== "model_call").map((step) => step.type),
      ["tool_failed", "tool_ok", "tool_ok"],
    );
    const failed = turn.steps.find((step) => step.type === "tool_failed");
    assert.ok(failed?.type === "tool_failed" && failed.tool === "critique");
    assert.match(failed.error, /score/);
  });
});
