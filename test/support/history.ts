import { mkdirSync, writeFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import type { Client } from "@temporalio/client";
import { historyToJSON } from "@temporalio/common/lib/proto-utils.js";
import proto from "@temporalio/proto";
import { readPureToolMarker, type PureToolMarker } from "../../src/client/pure-tool-markers.ts";

const { temporal } = proto;
type HistoryEvent = proto.temporal.api.history.v1.IHistoryEvent;
const EventType = temporal.api.enums.v1.EventType;

export const replayHistoriesDir = join(
  dirname(fileURLToPath(import.meta.url)),
  "..",
  "replay",
  "histories",
);

export async function fetchHistory(client: Client, workflowId: string) {
  return client.workflow.getHandle(workflowId).fetchHistory();
}

/**
 * Tool names in the order they ran on a worker: `runTool` activities scheduled (one per run,
 * retries not counted) and pure tools' local activities (one marker each).
 */
export async function scheduledTools(client: Client, workflowId: string): Promise<string[]> {
  const history = await fetchHistory(client, workflowId);
  const converter = client.options.loadedDataConverter.payloadConverter;
  return (history.events ?? []).flatMap((event: HistoryEvent): string[] => {
    const pure = readPureToolMarker(event, converter);
    if (pure !== undefined) return [pure.tool];
    if (event.eventType !== EventType.EVENT_TYPE_ACTIVITY_TASK_SCHEDULED) return [];
    if (event.activityTaskScheduledEventAttributes?.activityType?.name !== "runTool") return [];
    const payload = event.activityTaskScheduledEventAttributes.input?.payloads?.[0]?.data;
    const input = payload
      ? (JSON.parse(Buffer.from(payload).toString("utf8")) as { tool: string })
      : { tool: "?" };
    return [input.tool];
  });
}

/** Pure tools' local activities as their markers record them, in order. */
export async function pureToolMarkers(
  client: Client,
  workflowId: string,
): Promise<PureToolMarker[]> {
  const history = await fetchHistory(client, workflowId);
  const converter = client.options.loadedDataConverter.payloadConverter;
  return (history.events ?? []).flatMap((event: HistoryEvent) => {
    const pure = readPureToolMarker(event, converter);
    return pure === undefined ? [] : [pure];
  });
}

/** Activity attempts as the history records them: the Started event's attempt per activity. */
export async function activityAttempts(
  client: Client,
  workflowId: string,
): Promise<{ type: string; attempt: number }[]> {
  const history = await fetchHistory(client, workflowId);
  const scheduled = new Map<string, string>();
  const attempts: { type: string; attempt: number }[] = [];
  for (const event of history.events ?? []) {
    if (event.eventType === EventType.EVENT_TYPE_ACTIVITY_TASK_SCHEDULED) {
      scheduled.set(
        String(event.eventId),
        event.activityTaskScheduledEventAttributes?.activityType?.name ?? "?",
      );
    }
    if (event.eventType === EventType.EVENT_TYPE_ACTIVITY_TASK_STARTED) {
      const attributes = event.activityTaskStartedEventAttributes;
      attempts.push({
        type: scheduled.get(String(attributes?.scheduledEventId)) ?? "?",
        attempt: attributes?.attempt ?? 0,
      });
    }
  }
  return attempts;
}

/**
 * With AGENTDOCK_RECORD_HISTORIES=1, saves the workflow's history as a replay fixture under
 * test/replay/histories/ (npm run record-histories); otherwise does nothing.
 */
export async function recordHistory(
  client: Client,
  workflowId: string,
  name: string,
): Promise<void> {
  if (process.env["AGENTDOCK_RECORD_HISTORIES"] !== "1") return;
  const history = await fetchHistory(client, workflowId);
  mkdirSync(replayHistoriesDir, { recursive: true });
  const json = JSON.parse(historyToJSON(history)) as unknown;
  writeFileSync(
    join(replayHistoriesDir, `${name}.json`),
    `${JSON.stringify({ workflowId, history: json }, null, 2)}\n`,
  );
}
