import { writeFileSync } from "node:fs";
import { historyToJSON } from "@temporalio/common/lib/proto-utils.js";
import proto from "@temporalio/proto";
import { workflowIdFor } from "../../src/session/index.ts";
import { globalSetup, globalTeardown } from "../support/global-setup.ts";
import { shippedAgent } from "../support/shipped-agents.ts";
import { createTestEnv, uniqueId } from "../support/temporal-env.ts";
import { evaluationMessage } from "./turn.ts";

// Where one evaluation turn's history bytes go, by event type (activities by activity type,
// signals and updates by name): the second turn of a fresh session, as `bench turn` measures it.
// Run: npm exec -- node test/bench/history-breakdown.ts [history.json]
// (with a file name, the session's whole history is also written there, as JSON)

type HistoryEvent = proto.temporal.api.history.v1.IHistoryEvent;
const { EventType } = proto.temporal.api.enums.v1;
const eventTypeNames = new Map<number, string>(
  Object.entries(EventType).map(([name, value]) => [
    Number(value),
    name.replace(/^EVENT_TYPE_/, ""),
  ]),
);

function keyOf(event: HistoryEvent, activityTypes: Map<string, string>): string {
  const type = eventTypeNames.get(event.eventType ?? 0) ?? String(event.eventType);
  const scheduled = event.activityTaskScheduledEventAttributes;
  if (scheduled != null) {
    const name = scheduled.activityType?.name ?? "?";
    activityTypes.set(String(event.eventId), name);
    return `${type} ${name}`;
  }
  const scheduledId =
    event.activityTaskStartedEventAttributes?.scheduledEventId ??
    event.activityTaskCompletedEventAttributes?.scheduledEventId ??
    event.activityTaskFailedEventAttributes?.scheduledEventId;
  if (scheduledId != null) return `${type} ${activityTypes.get(String(scheduledId)) ?? "?"}`;
  const marker = event.markerRecordedEventAttributes?.markerName;
  if (marker != null) return `${type} ${marker}`;
  const signal = event.workflowExecutionSignaledEventAttributes?.signalName;
  if (signal != null) return `${type} ${signal}`;
  const update = event.workflowExecutionUpdateAcceptedEventAttributes?.acceptedRequest?.input?.name;
  if (update != null) return `${type} ${update}`;
  return type;
}

/** Bytes and counts per key for the events after `from` (an index into the events). */
export function breakdown(
  events: readonly HistoryEvent[],
  from: number,
): { key: string; count: number; bytes: number }[] {
  const activityTypes = new Map<string, string>();
  const rows = new Map<string, { key: string; count: number; bytes: number }>();
  events.forEach((event, index) => {
    const key = keyOf(event, activityTypes);
    if (index < from) return;
    const bytes = proto.temporal.api.history.v1.HistoryEvent.encode(event).finish().length;
    const row = rows.get(key) ?? { key, count: 0, bytes: 0 };
    row.count += 1;
    row.bytes += bytes;
    rows.set(key, row);
  });
  return [...rows.values()].sort((a, b) => b.bytes - a.bytes);
}

async function main(saveTo: string | undefined): Promise<void> {
  await globalSetup();
  const env = await createTestEnv({ taskQueue: uniqueId("history-breakdown") });
  try {
    await env.startWorker();
    const template = shippedAgent("cognitive-reasoner");
    const sessionId = uniqueId("breakdown");
    await env.sessions.sendWithStart({ template, sessionId }, evaluationMessage, "m1");
    const handle = env.client.workflow.getHandle(workflowIdFor(sessionId));
    const firstEvents = (await handle.fetchHistory()).events?.length ?? 0;
    await env.sessions.send(sessionId, evaluationMessage, "m2");
    const history = await handle.fetchHistory();
    if (saveTo !== undefined) writeFileSync(saveTo, historyToJSON(history));
    const rows = breakdown(history.events ?? [], firstEvents);
    const total = rows.reduce((sum, row) => sum + row.bytes, 0);
    const events = rows.reduce((sum, row) => sum + row.count, 0);
    for (const row of rows) {
      const share = ((100 * row.bytes) / total).toFixed(1).padStart(5);
      console.log(`${String(row.bytes).padStart(7)} B ${share} %  ${row.count}×  ${row.key}`);
    }
    console.log(`${String(total).padStart(7)} B in ${events} events (second turn)`);
  } finally {
    await env.close();
    await globalTeardown();
  }
}

if (import.meta.main) await main(process.argv[2]);
