import type { Client } from "@temporalio/client";
import { optionalTsToMs } from "@temporalio/common/lib/time.js";
import proto from "@temporalio/proto";
import type { AgentTemplate } from "../orchestration/index.ts";
import { workflowIdFor } from "../session/index.ts";
import { readPureToolMarker } from "./pure-tool-markers.ts";

const EventType = proto.temporal.api.enums.v1.EventType;
type HistoryEvent = proto.temporal.api.history.v1.IHistoryEvent;
type Payloads = proto.temporal.api.common.v1.IPayloads | null | undefined;

/**
 * One tool call of the session's current run, as Temporal's history records it: a `runTool`
 * activity, or a pure tool's local activity (its marker keeps no input: `input` is undefined,
 * and the timeline reads it from the conversation).
 */
export interface ToolActivityRun {
  toolCallId: string;
  toolName: string;
  input: unknown;
  /** Set once the activity completed. */
  output?: unknown;
  /** The failure's message once it failed or timed out for good. */
  error?: string;
  scheduledAt: string;
  /** Completed, failed or timed out; undefined while it runs. */
  closedAt?: string;
  /** From scheduling to closing, retries and queueing included. */
  durationMs?: number;
  /** Attempts made (1 unless the activity was retried). */
  attempts: number;
}

/** What the current run's history tells about a session, beyond its queries. */
export interface RunActivities {
  /** The template snapshot the session runs, from the run's input (undefined if unreadable). */
  template: AgentTemplate | undefined;
  /** Every tool activity by tool call id. */
  tools: Map<string, ToolActivityRun>;
}

interface RunToolInput {
  tool?: unknown;
  input?: unknown;
  toolCallId?: unknown;
}

function iso(event: HistoryEvent): string | undefined {
  const ms = optionalTsToMs(event.eventTime);
  return ms === undefined ? undefined : new Date(ms).toISOString();
}

/**
 * Tool calls' timings, inputs and outputs from the session's current run: Temporal's history is
 * the only place that holds when an activity was scheduled and closed, and it needs no worker
 * (queries do), so the console's timeline keeps its durations while workers restart.
 */
export async function readRunActivities(client: Client, sessionId: string): Promise<RunActivities> {
  const converter = client.options.loadedDataConverter.payloadConverter;
  const decode = (payloads: Payloads): unknown => {
    const first = payloads?.payloads?.[0];
    return first === undefined ? undefined : converter.fromPayload(first);
  };
  const history = await client.workflow.getHandle(workflowIdFor(sessionId)).fetchHistory();
  const tools = new Map<string, ToolActivityRun>();
  const byScheduledId = new Map<string, ToolActivityRun>();
  let template: AgentTemplate | undefined;
  for (const event of history.events ?? []) {
    switch (event.eventType) {
      case EventType.EVENT_TYPE_WORKFLOW_EXECUTION_STARTED: {
        // Written by this project's client after validation; the workflow trusts it the same way.
        const input = decode(event.workflowExecutionStartedEventAttributes?.input) as
          { template?: AgentTemplate } | undefined;
        if (Array.isArray(input?.template?.tools)) template = input.template;
        break;
      }
      case EventType.EVENT_TYPE_MARKER_RECORDED: {
        const pure = readPureToolMarker(event, converter);
        if (pure === undefined) break;
        const scheduledAt = pure.scheduledAt ?? iso(event) ?? new Date(0).toISOString();
        const run: ToolActivityRun = {
          toolCallId: pure.toolCallId,
          toolName: pure.tool,
          input: undefined,
          scheduledAt,
          attempts: pure.attempts,
        };
        tools.set(run.toolCallId, run);
        const closedAt = pure.closedAt ?? iso(event);
        if (closedAt !== undefined) {
          run.closedAt = closedAt;
          // Both times are the worker's clock; a marker never reports a negative duration.
          run.durationMs = Math.max(0, Date.parse(closedAt) - Date.parse(scheduledAt));
        }
        if (pure.error !== undefined) run.error = pure.error;
        else run.output = pure.output;
        break;
      }
      case EventType.EVENT_TYPE_ACTIVITY_TASK_SCHEDULED: {
        const attributes = event.activityTaskScheduledEventAttributes;
        if (attributes?.activityType?.name !== "runTool") break;
        const input = decode(attributes.input) as RunToolInput | undefined;
        if (typeof input?.toolCallId !== "string" || typeof input.tool !== "string") break;
        const run: ToolActivityRun = {
          toolCallId: input.toolCallId,
          toolName: input.tool,
          input: input.input,
          scheduledAt: iso(event) ?? new Date(0).toISOString(),
          attempts: 1,
        };
        tools.set(run.toolCallId, run);
        byScheduledId.set(String(event.eventId), run);
        break;
      }
      case EventType.EVENT_TYPE_ACTIVITY_TASK_STARTED: {
        const attributes = event.activityTaskStartedEventAttributes;
        const run = byScheduledId.get(String(attributes?.scheduledEventId));
        if (run !== undefined) run.attempts = Math.max(1, attributes?.attempt ?? 1);
        break;
      }
      case EventType.EVENT_TYPE_ACTIVITY_TASK_COMPLETED: {
        const attributes = event.activityTaskCompletedEventAttributes;
        const run = byScheduledId.get(String(attributes?.scheduledEventId));
        if (run !== undefined) close(run, event, { output: decode(attributes?.result) });
        break;
      }
      case EventType.EVENT_TYPE_ACTIVITY_TASK_FAILED: {
        const attributes = event.activityTaskFailedEventAttributes;
        const run = byScheduledId.get(String(attributes?.scheduledEventId));
        const message = attributes?.failure?.cause?.message ?? attributes?.failure?.message;
        if (run !== undefined) close(run, event, { error: message ?? "failed" });
        break;
      }
      case EventType.EVENT_TYPE_ACTIVITY_TASK_TIMED_OUT: {
        const attributes = event.activityTaskTimedOutEventAttributes;
        const run = byScheduledId.get(String(attributes?.scheduledEventId));
        if (run !== undefined) close(run, event, { error: "timed out" });
        break;
      }
      default:
        break;
    }
  }
  return { template, tools };
}

function close(
  run: ToolActivityRun,
  event: HistoryEvent,
  outcome: { output?: unknown; error?: string },
): void {
  const closedAt = iso(event);
  if (closedAt !== undefined) {
    run.closedAt = closedAt;
    run.durationMs = Date.parse(closedAt) - Date.parse(run.scheduledAt);
  }
  if ("output" in outcome) run.output = outcome.output;
  if (outcome.error !== undefined) run.error = outcome.error;
}
