import type { PayloadConverter } from "@temporalio/common";
import proto from "@temporalio/proto";
import { z } from "zod";
import {
  PURE_TOOL_ACTIVITY,
  pureToolCallSchema,
  pureToolRunSchema,
} from "../session/pure-tool-run.ts";

type HistoryEvent = proto.temporal.api.history.v1.IHistoryEvent;
type Payloads = proto.temporal.api.common.v1.IPayloads | null | undefined;

/** The marker core writes for a local activity (`core_local_activity`). */
const LOCAL_ACTIVITY_MARKER = "core_local_activity";

const timestampSchema = z.object({ seconds: z.number(), nanos: z.number() });

/** The part of core's local-activity marker data read here. */
const markerDataSchema = z.object({
  activity_type: z.string(),
  attempt: z.number().int().positive().optional(),
  complete_time: timestampSchema.nullish(),
  original_schedule_time: timestampSchema.nullish(),
});

/** One pure tool's call as its local activity's marker records it. */
export interface PureToolMarker {
  tool: string;
  toolCallId: string;
  /** The tool's output, when it succeeded. */
  output?: unknown;
  /** The failure's message, when it failed for good. */
  error?: string;
  attempts: number;
  /** When the call was first scheduled and when it ended, by the worker's clock. */
  scheduledAt?: string;
  closedAt?: string;
}

function iso(time: z.infer<typeof timestampSchema> | null | undefined): string | undefined {
  return time == null ? undefined : new Date(time.seconds * 1000 + time.nanos / 1e6).toISOString();
}

/**
 * A pure tool's call from a marker event, or undefined for any other event. A local activity's
 * marker keeps no input: the call (tool and id) comes from its result, or from its failure's
 * details (see activities/pure-tool-activity.ts).
 */
export function readPureToolMarker(
  event: HistoryEvent,
  converter: PayloadConverter,
): PureToolMarker | undefined {
  const marker = event.markerRecordedEventAttributes;
  if (marker?.markerName !== LOCAL_ACTIVITY_MARKER) return undefined;
  const decode = (payloads: Payloads): unknown => {
    const first = payloads?.payloads?.[0];
    return first == null ? undefined : converter.fromPayload(first);
  };
  const data = markerDataSchema.safeParse(decode(marker.details?.["data"]));
  if (!data.success || data.data.activity_type !== PURE_TOOL_ACTIVITY) return undefined;
  const times = {
    attempts: data.data.attempt ?? 1,
    ...optional("scheduledAt", iso(data.data.original_schedule_time)),
    ...optional("closedAt", iso(data.data.complete_time)),
  };
  const failure = marker.failure;
  if (failure != null) {
    // The activity's own failure: the marker's, or its cause when wrapped as an ActivityFailure.
    const own = [failure, failure.cause].find((candidate) => candidate?.applicationFailureInfo);
    const call = pureToolCallSchema.safeParse(decode(own?.applicationFailureInfo?.details));
    if (!call.success) return undefined;
    return { ...call.data, error: own?.message ?? "failed", ...times };
  }
  const run = pureToolRunSchema.safeParse(decode(marker.details?.["result"]));
  if (!run.success) return undefined;
  return {
    tool: run.data.tool,
    toolCallId: run.data.toolCallId,
    output: run.data.output,
    ...times,
  };
}

function optional<K extends string>(key: K, value: string | undefined): { [P in K]?: string } {
  return (value === undefined ? {} : { [key]: value }) as { [P in K]?: string };
}
