import assert from "node:assert/strict";
import { describe, it } from "node:test";
import proto from "@temporalio/proto";
import { readRunActivities } from "../../src/client/index.ts";
import { readPureToolMarker } from "../../src/client/pure-tool-markers.ts";
import { workflowIdFor } from "../../src/session/index.ts";
import { shippedAgent } from "../support/shipped-agents.ts";
import {
  fetchHistory,
  pureToolMarkers,
  recordHistory,
  scheduledTools,
} from "../support/history.ts";
import { uniqueId, useSessionEnv } from "../support/temporal-env.ts";

const reasoner = shippedAgent("cognitive-reasoner");
const EventType = proto.temporal.api.enums.v1.EventType;

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

  it("runs its pure tools as local activities: no tool activity, no workflow task of their own, still on the timeline", async () => {
    const sessionId = uniqueId("evaluate-local");
    const result = await session.env.sessions.sendWithStart(
      { template: reasoner, sessionId },
      "Please evaluate the argument that remote work improves productivity",
      "m1",
    );
    assert.equal(result.error, undefined);
    const workflowId = workflowIdFor(sessionId);
    const markers = await pureToolMarkers(session.env.client, workflowId);
    assert.deepEqual(
      markers.map((marker) => [marker.tool, marker.toolCallId, marker.attempts]),
      result.toolCalls.map((call) => [call.toolName, call.toolCallId, 1]),
    );
    assert.ok(markers.every((marker) => marker.error === undefined && marker.output !== undefined));

    const events = (await fetchHistory(session.env.client, workflowId)).events ?? [];
    const activities = events.flatMap((event) => {
      const name = event.activityTaskScheduledEventAttributes?.activityType?.name;
      return name === undefined ? [] : [name];
    });
    assert.deepEqual(activities, Array(4).fill("invokeModelStreaming"), "model calls only");
    // Each tool's marker is written by the workflow task that schedules the next model call.
    const taskOf = (index: number): string =>
      String(
        events[index]?.markerRecordedEventAttributes?.workflowTaskCompletedEventId ??
          events[index]?.activityTaskScheduledEventAttributes?.workflowTaskCompletedEventId,
      );
    const converter = session.env.client.options.loadedDataConverter.payloadConverter;
    const toolMarkers = events.flatMap((event, index) =>
      readPureToolMarker(event, converter) === undefined ? [] : [index],
    );
    assert.equal(toolMarkers.length, 3);
    for (const index of toolMarkers) {
      const next = events.findIndex(
        (event, at) =>
          at > index && event.eventType === EventType.EVENT_TYPE_ACTIVITY_TASK_SCHEDULED,
      );
      assert.equal(taskOf(index), taskOf(next), `tool marker #${index + 1} has a task of its own`);
    }

    const { tools } = await readRunActivities(session.env.client, sessionId);
    assert.deepEqual(
      [...tools.values()].map((run) => [run.toolName, run.attempts, run.error]),
      [
        ["critique", 1, undefined],
        ["debate", 1, undefined],
        ["reflect", 1, undefined],
      ],
    );
    assert.ok(
      [...tools.values()].every((run) => run.output !== undefined && run.durationMs !== undefined),
    );
  });
});
