import assert from "node:assert/strict";
import { describe, it } from "node:test";
import proto from "@temporalio/proto";
import { turnActivities, workflowTasks } from "../../bench/support/turn-activities.ts";

type HistoryEvent = proto.temporal.api.history.v1.IHistoryEvent;
const EventType = proto.temporal.api.enums.v1.EventType;

const scheduled = (name: string): HistoryEvent => ({
  eventType: EventType.EVENT_TYPE_ACTIVITY_TASK_SCHEDULED,
  activityTaskScheduledEventAttributes: { activityType: { name } },
});
/** A local-activity marker as Core records it: its data a JSON payload naming the type. */
const localMarker = (type: string): HistoryEvent => ({
  eventType: EventType.EVENT_TYPE_MARKER_RECORDED,
  markerRecordedEventAttributes: {
    markerName: "core_local_activity",
    details: {
      data: {
        payloads: [{ data: Buffer.from(JSON.stringify({ seq: 1, activity_type: type })) }],
      },
    },
  },
});
const patchMarker: HistoryEvent = {
  eventType: EventType.EVENT_TYPE_MARKER_RECORDED,
  markerRecordedEventAttributes: { markerName: "core_patch" },
};
const taskCompleted: HistoryEvent = { eventType: EventType.EVENT_TYPE_WORKFLOW_TASK_COMPLETED };

describe("the activities a turn's history shows (what the bare floor runs)", () => {
  it("counts scheduled activities and local ones doing the turn's work, not the availability check or patches", () => {
    const counts = turnActivities([
      patchMarker,
      localMarker("checkToolAvailability"),
      scheduled("invokeModelStreaming"),
      scheduled("runTool"),
      scheduled("invokeModelStreaming"),
      localMarker("runTool"),
      scheduled("invokeModelStreaming"),
    ]);
    assert.deepEqual(counts, {
      regular: 4,
      local: 1,
      byType: {
        "checkToolAvailability (local)": 1,
        invokeModelStreaming: 3,
        runTool: 1,
        "runTool (local)": 1,
      },
    });
  });

  it("counts a marker whose data it cannot read as a local activity of unknown type", () => {
    const unreadable: HistoryEvent = {
      eventType: EventType.EVENT_TYPE_MARKER_RECORDED,
      markerRecordedEventAttributes: {
        markerName: "core_local_activity",
        details: { data: { payloads: [{ data: Buffer.from("not json") }] } },
      },
    };
    assert.deepEqual(turnActivities([unreadable]), {
      regular: 0,
      local: 1,
      byType: { "unknown (local)": 1 },
    });
  });

  it("counts the workflow tasks completed", () => {
    assert.equal(workflowTasks([taskCompleted, scheduled("runTool"), taskCompleted]), 2);
  });
});
