import proto from "@temporalio/proto";

type HistoryEvent = proto.temporal.api.history.v1.IHistoryEvent;
const EventType = proto.temporal.api.enums.v1.EventType;

/**
 * Bookkeeping local activities of ours that are not the turn's work: the bare floor, doing the
 * same work the plain way, would not run them.
 */
const bookkeepingLocalActivities = new Set(["checkToolAvailability"]);

export interface TurnActivities {
  /** Activities the turn scheduled on the server (model calls, tools). */
  regular: number;
  /** Local activities doing the turn's work (a tool made local), bookkeeping excluded. */
  local: number;
  /** Activity type → count, both kinds, bookkeeping included: what the count is made of. */
  byType: Record<string, number>;
}

/**
 * The activities a turn's history events show: what the bare floor must run to do "the same
 * work", counted rather than assumed so a tool turned into a local activity still counts.
 */
export function turnActivities(events: readonly HistoryEvent[]): TurnActivities {
  const counts: TurnActivities = { regular: 0, local: 0, byType: {} };
  const add = (type: string) => {
    counts.byType[type] = (counts.byType[type] ?? 0) + 1;
  };
  for (const event of events) {
    if (event.eventType === EventType.EVENT_TYPE_ACTIVITY_TASK_SCHEDULED) {
      counts.regular++;
      add(event.activityTaskScheduledEventAttributes?.activityType?.name ?? "unknown");
    }
    const marker = event.markerRecordedEventAttributes;
    if (marker?.markerName === "core_local_activity") {
      const type = localActivityType(marker.details?.["data"]?.payloads?.[0]?.data);
      add(`${type} (local)`);
      if (!bookkeepingLocalActivities.has(type)) counts.local++;
    }
  }
  return counts;
}

/** The activity type in a local-activity marker's JSON data (Core writes it snake_cased). */
function localActivityType(data: Uint8Array | null | undefined): string {
  if (data === undefined || data === null) return "unknown";
  try {
    const parsed = JSON.parse(Buffer.from(data).toString("utf8")) as Record<string, unknown>;
    const type = parsed["activity_type"] ?? parsed["activityType"];
    return typeof type === "string" ? type : "unknown";
  } catch {
    return "unknown";
  }
}

/** Workflow tasks the events completed: each one a round trip between the worker and the server. */
export function workflowTasks(events: readonly HistoryEvent[]): number {
  return events.filter((event) => event.eventType === EventType.EVENT_TYPE_WORKFLOW_TASK_COMPLETED)
    .length;
}
