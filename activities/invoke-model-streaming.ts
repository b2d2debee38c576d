import type {
  LanguageModelV4Content,
  LanguageModelV4FinishReason,
  LanguageModelV4GenerateResult,
  LanguageModelV4StreamPart,
  LanguageModelV4Usage,
  ProviderV4,
  SharedV4Warning,
} from "@ai-sdk/provider";
import { Context } from "@temporalio/activity";
import { ApplicationFailure } from "@temporalio/common";
import { WorkflowStreamClient } from "@temporalio/workflow-streams/client";
import { modelCallOptions, type OfferedModelCalls } from "./model-call-options.ts";
import { ModelStreamPublisher } from "./model-stream-publisher.ts";
import type { LivePartsReport } from "../src/session/model-call-input.ts";

/**
 * How often a model call's live parts are sent to its session (each send is a signal in the
 * session's history): long enough that a slow stream costs a few events a second, short
 * enough that text appears as it is written.
 */
export const MODEL_STREAM_INTERVAL_MS = 250;

type StreamPart = LanguageModelV4StreamPart;

/** Content parts a stream carries in the same shape the result records them. */
const contentTypes = new Set([
  "tool-call",
  "tool-result",
  "file",
  "source",
  "reasoning-file",
  "custom",
  "tool-approval-request",
]);

/** Assembles the streamed parts into the result `doGenerate` would have returned. */
class ResultAssembler {
  readonly content: LanguageModelV4Content[] = [];
  readonly warnings: SharedV4Warning[] = [];
  finishReason: LanguageModelV4FinishReason = { unified: "other", raw: undefined };
  usage: LanguageModelV4Usage = {
    inputTokens: {
      total: undefined,
      noCache: undefined,
      cacheRead: undefined,
      cacheWrite: undefined,
    },
    outputTokens: { total: undefined, text: undefined, reasoning: undefined },
  };
  metadata: { id?: string; timestamp?: Date; modelId?: string } | undefined;
  finished = false;
  error: { seen: boolean; value: unknown } = { seen: false, value: undefined };
  private readonly texts = new Map<string, string>();
  private readonly reasonings = new Map<string, string>();

  add(part: StreamPart): void {
    switch (part.type) {
      case "stream-start":
        this.warnings.push(...part.warnings);
        return;
      case "text-start":
        this.texts.set(part.id, "");
        return;
      case "text-delta":
        this.texts.set(part.id, (this.texts.get(part.id) ?? "") + part.delta);
        return;
      case "text-end":
        this.content.push({
          type: "text",
          text: this.texts.get(part.id) ?? "",
          ...(part.providerMetadata === undefined
            ? {}
            : { providerMetadata: part.providerMetadata }),
        });
        this.texts.delete(part.id);
        return;
      case "reasoning-start":
        this.reasonings.set(part.id, "");
        return;
      case "reasoning-delta":
        this.reasonings.set(part.id, (this.reasonings.get(part.id) ?? "") + part.delta);
        return;
      case "reasoning-end":
        this.content.push({
          type: "reasoning",
          text: this.reasonings.get(part.id) ?? "",
          ...(part.providerMetadata === undefined
            ? {}
            : { providerMetadata: part.providerMetadata }),
        });
        this.reasonings.delete(part.id);
        return;
      case "response-metadata":
        this.metadata = { id: part.id, timestamp: part.timestamp, modelId: part.modelId };
        return;
      case "finish":
        this.finishReason = part.finishReason;
        this.usage = part.usage;
        this.finished = true;
        return;
      case "error":
        this.error = { seen: true, value: part.error };
        return;
      default:
        if (contentTypes.has(part.type)) this.content.push(part as LanguageModelV4Content);
    }
  }
}

/**
 * The model activity of sessions (registered as `invokeModelStreaming`, replacing the AI SDK
 * plugin's): streams the call, publishes what live viewers show to the call's topic, and returns
 * the assembled result, which is what history records. Its options come from its input or, in
 * sessions that send only a key, from what its workflow offered this worker, else by query. The provider's copy of the request
 * body is left out of the result: it repeats the whole prompt, and nothing reads it back.
 */
export function createInvokeModelStreaming(provider: ProviderV4, offered?: OfferedModelCalls) {
  return async function invokeModelStreaming(
    args: unknown,
  ): Promise<LanguageModelV4GenerateResult> {
    const { modelId, streamingTopic, options, deferLiveParts } = await modelCallOptions(
      args,
      offered,
    );
    const stream = WorkflowStreamClient.fromWithinActivity({
      batchInterval: `${MODEL_STREAM_INTERVAL_MS} milliseconds`,
    });
    const publisher = new ModelStreamPublisher(
      stream.topic<Uint8Array>(streamingTopic),
      MODEL_STREAM_INTERVAL_MS,
      { deferred: deferLiveParts },
    );
    // Aborted when the turn is stopped (the cancel arrives with a heartbeat's answer): every
    // provider's request takes it and closes its connection, the scripted model stops waiting.
    const { cancellationSignal } = Context.current();
    try {
      const model = provider.languageModel(modelId);
      const result = await model.doStream({ ...options, abortSignal: cancellationSignal });
      const assembled = new ResultAssembler();
      const reader = result.stream.getReader();
      for (;;) {
        const { done, value: part } = await reader.read();
        if (done) break;
        // A provider may deliver a part it had buffered after the abort: nothing after the
        // cancel is published or returned.
        cancellationSignal.throwIfAborted();
        Context.current().heartbeat();
        publisher.add(part);
        assembled.add(part);
      }
      // An error part is a provider failure even when a finish part follows: retryable, as a
      // thrown provider error is (the activity's retry policy decides).
      if (assembled.error.seen) {
        const ending = assembled.finished ? "" : " and ended without a finish part";
        throw ApplicationFailure.retryable(
          `Model stream emitted an error part${ending}: ${String(assembled.error.value)}`,
        );
      }
      const response =
        assembled.metadata === undefined
          ? result.response
          : { ...assembled.metadata, ...result.response };
      return {
        content: assembled.content,
        finishReason: assembled.finishReason,
        usage: assembled.usage,
        warnings: assembled.warnings,
        ...(result.request === undefined
          ? {}
          : { request: { ...result.request, body: undefined } }),
        ...(response === undefined ? {} : { response }),
        // Read before `close()` below, which runs before any timer could send more.
        ...(deferLiveParts ? { livePartsPublished: publisher.sentAny } : {}),
      } satisfies LanguageModelV4GenerateResult & LivePartsReport;
    } catch (error) {
      // Whatever the provider threw on the abort (its own error type, a stream error), the
      // activity ends as cancelled, which is never retried: the signal's reason is the SDK's
      // CancelledFailure.
      if (cancellationSignal.aborted) throw cancellationSignal.reason;
      throw error;
    } finally {
      publisher.close({ discard: cancellationSignal.aborted });
      await stream[Symbol.asyncDispose]();
    }
  };
}
