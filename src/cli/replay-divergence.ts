import type { History } from "@temporalio/common/lib/proto-utils.js";

type HistoryEvent = NonNullable<History["events"]>[number];

export interface DivergingEvent {
  eventId: number;
  eventType: string;
  activityType?: string;
}

/** The core's own words (`[TMPRL1100] Nondeterminism error: …`) out of the SDK's wrapper text. */
export function nondeterminismDetail(message: string): string {
  const match = /\[TMPRL1100\][^"]*/.exec(message);
  return match === null ? message : match[0].trim();
}

/** `ActivityTaskScheduled` from the one `…EventAttributes` field an event carries. */
function eventTypeName(event: HistoryEvent): string {
  const key = Object.keys(event).find(
    (name) => name.endsWith("EventAttributes") && event[name as keyof HistoryEvent] !== null,
  );
  if (key === undefined) return "unknown";
  const name = key.slice(0, -"EventAttributes".length);
  return name.charAt(0).toUpperCase() + name.slice(1);
}

function describe(event: HistoryEvent): DivergingEvent {
  const activityType = event.activityTaskScheduledEventAttributes?.activityType?.name;
  return {
    eventId: Number(event.eventId ?? 0),
    eventType: eventTypeName(event),
    ...(typeof activityType === "string" ? { activityType } : {}),
  };
}

/**
 * The history event the replay diverged at, from what the core's message names: an event id
 * (`HistoryEvent(id: 7, …)`) or a scheduled activity's type. Undefined when it names neither.
 */
export function divergingEvent(detail: string, history: History): DivergingEvent | undefined {
  const events = history.events ?? [];
  const byId = /HistoryEvent\(id: (\d+)/.exec(detail);
  if (byId !== null) {
    const event = events.find((candidate) => Number(candidate.eventId) === Number(byId[1]));
    return event === undefined ? undefined : describe(event);
  }
  const byActivity = /scheduled event '([^']+)'/.exec(detail);
  if (byActivity !== null) {
    const event = events.find(
      (candidate) =>
        candidate.activityTaskScheduledEventAttributes?.activityType?.name === byActivity[1],
    );
    return event === undefined ? undefined : describe(event);
  }
  return undefined;
}

export function formatDivergingEvent(event: DivergingEvent): string {
  return `#${event.eventId} ${event.eventType}${event.activityType === undefined ? "" : ` (activity ${event.activityType})`}`;
}
