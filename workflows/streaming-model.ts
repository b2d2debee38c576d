import type {
  LanguageModelV4,
  LanguageModelV4CallOptions,
  LanguageModelV4GenerateResult,
} from "@ai-sdk/provider";
import type { InvokeModelStreamingArgs } from "@temporalio/ai-sdk";
import { ApplicationFailure, proxyActivities, type ActivityOptions } from "@temporalio/workflow";

/** The activity `AiSdkPlugin` registers on the worker: it streams and returns the whole result. */
interface StreamingModelActivities {
  invokeModelStreaming(args: InvokeModelStreamingArgs): Promise<LanguageModelV4GenerateResult>;
}

/**
 * A model for workflow code whose every call streams: the model activity publishes each stream
 * part to the session's workflow stream as it arrives (live tokens for every subscriber) and
 * returns the assembled result, which is what history records. `generateText` drives it as a
 * plain generate call, so the turn loop keeps its error handling and result shape.
 */
export class StreamingActivityModel implements LanguageModelV4 {
  readonly specificationVersion = "v4";
  readonly provider = "temporal";
  readonly supportedUrls = {};
  readonly modelId: string;
  private readonly activityOptions: ActivityOptions;
  /** Names the topic of one call, when it starts (the stream accepts publishes only there). */
  private readonly openTopic: () => string;

  constructor(modelId: string, openTopic: () => string, activityOptions: ActivityOptions) {
    this.modelId = modelId;
    this.openTopic = openTopic;
    this.activityOptions = activityOptions;
  }

  async doGenerate(options: LanguageModelV4CallOptions): Promise<LanguageModelV4GenerateResult> {
    const activities = proxyActivities<StreamingModelActivities>(this.activityOptions);
    const result = await activities.invokeModelStreaming({
      modelId: this.modelId,
      options,
      streamingTopic: this.openTopic(),
    });
    // Timestamps cross the activity boundary as strings; the AI SDK expects a Date.
    const timestamp: unknown = result.response?.timestamp;
    if (result.response !== undefined && typeof timestamp === "string") {
      const parsed = new Date(timestamp);
      if (!Number.isNaN(parsed.getTime())) result.response.timestamp = parsed;
    }
    return result;
  }

  doStream(): never {
    // generateText never calls it; streaming happens inside the activity.
    throw ApplicationFailure.nonRetryable("StreamingActivityModel streams through its activity");
  }
}
