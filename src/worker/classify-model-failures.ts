import type { LanguageModelV4, LanguageModelV4StreamPart, ProviderV4 } from "@ai-sdk/provider";
import { APICallError } from "@ai-sdk/provider";
import { ApplicationFailure } from "@temporalio/common";
import { isNonRetryableModelError } from "../llm/non-retryable.ts";
import type { Redactor } from "./redact-secrets.ts";

/** The delay a provider asks for (`Retry-After` seconds), honoured instead of the backoff. */
function retryAfterMs(error: APICallError): number | undefined {
  const header = error.responseHeaders?.["retry-after"];
  const seconds = header === undefined ? Number.NaN : Number(header);
  return Number.isFinite(seconds) && seconds >= 0 ? Math.min(seconds, 300) * 1000 : undefined;
}

/**
 * Failures a retry cannot fix (a 4xx from the provider, a missing API key, an exhausted
 * script) become non-retryable activity failures, so the model activity fails once and the
 * session reports the error; everything else (429, 5xx, network) is retried by the activity.
 */
export function classifyModelFailure(error: unknown): unknown {
  if (error instanceof ApplicationFailure) return error;
  if (APICallError.isInstance(error)) {
    const status = error.statusCode === undefined ? "" : ` (HTTP ${error.statusCode})`;
    if (!error.isRetryable) {
      return ApplicationFailure.create({
        message: `the model provider rejected the request${status}: ${error.message}`,
        type: "ModelRequestRejected",
        nonRetryable: true,
      });
    }
    const delay = retryAfterMs(error);
    return ApplicationFailure.create({
      message: `model provider error${status}: ${error.message}`,
      type: "ModelUnavailable",
      ...(delay === undefined ? {} : { nextRetryDelay: delay }),
    });
  }
  if (error instanceof Error && isNonRetryableModelError(error)) {
    return ApplicationFailure.create({
      message: error.message,
      type: error.name,
      nonRetryable: true,
    });
  }
  return error;
}

type StreamPart = LanguageModelV4StreamPart;

/**
 * The activity publishes every stream part to the session's stream as it arrives: an error part
 * (a provider's error body mid-stream) or a raw chunk is redacted before it gets there.
 */
function redactedPart(part: StreamPart, redactor: Redactor): StreamPart {
  if (part.type === "error") {
    const error =
      part.error instanceof Error ? redactor.error(part.error) : redactor.value(part.error);
    return { ...part, error };
  }
  if (part.type === "raw") return { ...part, rawValue: redactor.value(part.rawValue) };
  return part;
}

function classified(model: LanguageModelV4, redactor: Redactor): LanguageModelV4 {
  return {
    specificationVersion: model.specificationVersion,
    provider: model.provider,
    modelId: model.modelId,
    supportedUrls: model.supportedUrls,
    doGenerate: async (options) => {
      try {
        return await model.doGenerate(options);
      } catch (error) {
        throw classifyModelFailure(error);
      }
    },
    doStream: async (options) => {
      try {
        const result = await model.doStream(options);
        return {
          ...result,
          stream: result.stream.pipeThrough(
            new TransformStream<StreamPart, StreamPart>({
              transform: (part, controller) => {
                controller.enqueue(redactedPart(part, redactor));
              },
            }),
          ),
        };
      } catch (error) {
        throw classifyModelFailure(error);
      }
    },
  };
}

/**
 * The provider the worker's model activities use, with failures classified for retry and stream
 * parts redacted (thrown errors are redacted by the activity interceptor).
 */
export function withClassifiedFailures(provider: ProviderV4, redactor: Redactor): ProviderV4 {
  return {
    specificationVersion: "v4",
    languageModel: (modelId) => {
      try {
        return classified(provider.languageModel(modelId), redactor);
      } catch (error) {
        throw classifyModelFailure(error);
      }
    },
    embeddingModel: (modelId) => provider.embeddingModel(modelId),
    imageModel: (modelId) => provider.imageModel(modelId),
  };
}
