import type {
  LanguageModelV4,
  LanguageModelV4CallOptions,
  LanguageModelV4GenerateResult,
} from "@ai-sdk/provider";
import type { InvokeModelStreamingArgs } from "@temporalio/ai-sdk";
import {
  ApplicationFailure,
  defineQuery,
  patched,
  proxyActivities,
  proxySinks,
  setHandler,
  workflowInfo,
  type ActivityOptions,
} from "@temporalio/workflow";
import {
  MODEL_CALL_OPTIONS_QUERY,
  type LivePartsReport,
  type ModelCallByQuery,
  type ModelCallSinks,
} from "../src/session/model-call-input.ts";
import { livePartsOfContent, type LivePart } from "../src/session/live-parts.ts";

/**
 * Sessions recorded before model activities asked for their options replay with the options in
 * every activity input.
 */
export const MODEL_OPTIONS_QUERY_PATCH = "model-options-by-query";

/**
 * Sessions recorded before a short call's live parts were published by the workflow replay with
 * the activity publishing every call's parts (a signal, an event and a workflow task per call).
 */
export const MODEL_STREAM_TAIL_PATCH = "model-stream-tail";

const modelCallOptionsQuery = defineQuery<LanguageModelV4CallOptions | null, [unknown]>(
  MODEL_CALL_OPTIONS_QUERY,
);

/** The activity `AiSdkPlugin` registers on the worker: it streams and returns the whole result. */
interface StreamingModelActivities {
  invokeModelStreaming(
    args: InvokeModelStreamingArgs | ModelCallByQuery,
  ): Promise<LanguageModelV4GenerateResult & LivePartsReport>;
}

function offeredTools(options: LanguageModelV4CallOptions): string[] {
  return (options.tools ?? []).map((tool) => tool.name);
}

/**
 * Runs one model call whose activity obtains its options (the prompt, tool schemas and settings)
 * instead of receiving them: the activity input records only the call's key and offered tools.
 * The options go to this worker through a sink (not while replaying: the call then ran long
 * ago, or the activity will ask), and are answered by query only while the call runs, only for
 * its key.
 */
async function callWithOptionsByQuery(
  activities: StreamingModelActivities,
  modelId: string,
  streamingTopic: string,
  options: LanguageModelV4CallOptions,
  deferLiveParts: boolean,
): Promise<LanguageModelV4GenerateResult & LivePartsReport> {
  setHandler(modelCallOptionsQuery, (key) => (key === streamingTopic ? options : null));
  if (!workflowInfo().unsafe.isReplaying) {
    proxySinks<ModelCallSinks>().modelCalls.offer(streamingTopic, options);
  }
  try {
    return await activities.invokeModelStreaming({
      modelId,
      streamingTopic,
      offeredTools: offeredTools(options),
      ...(deferLiveParts ? { deferLiveParts } : {}),
    });
  } finally {
    setHandler(modelCallOptionsQuery, () => null);
  }
}

/** The session's live stream as a model call uses it. */
export interface ModelCallStream {
  /** Names the topic of one call, when it starts (the stream accepts publishes only there). */
  openTopic(): string;
  /** Publishes, from the workflow, the live parts of a call whose activity published none. */
  publish(topic: string, parts: readonly LivePart[]): void;
}

/**
 * A model for workflow code whose every call streams: the model activity publishes stream parts
 * to the session's workflow stream as they arrive (live tokens for every subscriber) and
 * returns the assembled result, which is what history records. `generateText` drives it as a
 * plain generate call, so the turn loop keeps its error handling and result shape.
 */
export class StreamingActivityModel implements LanguageModelV4 {
  readonly specificationVersion = "v4";
  readonly provider = "temporal";
  readonly supportedUrls = {};
  readonly modelId: string;
  private readonly activityOptions: ActivityOptions;
  private readonly stream: ModelCallStream;

  constructor(modelId: string, stream: ModelCallStream, activityOptions: ActivityOptions) {
    this.modelId = modelId;
    this.stream = stream;
    this.activityOptions = activityOptions;
  }

  async doGenerate(options: LanguageModelV4CallOptions): Promise<LanguageModelV4GenerateResult> {
    const activities = proxyActivities<StreamingModelActivities>(this.activityOptions);
    const streamingTopic = this.stream.openTopic();
    const result = patched(MODEL_OPTIONS_QUERY_PATCH)
      ? await callWithOptionsByQuery(
          activities,
          this.modelId,
          streamingTopic,
          options,
          patched(MODEL_STREAM_TAIL_PATCH),
        )
      : await activities.invokeModelStreaming({ modelId: this.modelId, options, streamingTopic });
    const { livePartsPublished, ...answer } = result;
    if (livePartsPublished === false) {
      this.stream.publish(streamingTopic, livePartsOfContent(answer.content));
    }
    // Timestamps cross the activity boundary as strings; the AI SDK expects a Date.
    const timestamp: unknown = answer.response?.timestamp;
    if (answer.response !== undefined && typeof timestamp === "string") {
      const parsed = new Date(timestamp);
      if (!Number.isNaN(parsed.getTime())) answer.response.timestamp = parsed;
    }
    return answer;
  }

  doStream(): never {
    // generateText never calls it; streaming happens inside the activity.
    throw ApplicationFailure.nonRetryable("StreamingActivityModel streams through its activity");
  }
}
