import type { LanguageModelV4, ProviderV4 } from "@ai-sdk/provider";
import { APICallError } from "@ai-sdk/provider";
import { ApplicationFailure } from "@temporalio/common";
import { isNonRetryableModelError } from "../llm/non-retryable.ts";

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

function classified(model: LanguageModelV4): LanguageModelV4 {
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
        return await model.doStream(options);
      } catch (error) {
        throw classifyModelFailure(error);
      }
    },
  };
}

/** The provider the worker's model activities use, with failures classified for retry. */
export function withClassifiedFailures(provider: ProviderV4): ProviderV4 {
  return {
    specificationVersion: "v4",
    languageModel: (modelId) => {
      try {
        return classified(provider.languageModel(modelId));
      } catch (error) {
        throw classifyModelFailure(error);
      }
    },
    embeddingModel: (modelId) => provider.embeddingModel(modelId),
    imageModel: (modelId) => provider.imageModel(modelId),
  };
}
