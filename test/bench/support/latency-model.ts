import { setTimeout as sleep } from "node:timers/promises";
import type { LanguageModelV4, ProviderV4 } from "@ai-sdk/provider";
import { wrapLanguageModel, type LanguageModelMiddleware } from "ai";

/**
 * A model that waits `latencyMs` before every answer (generated or streamed), then answers as the
 * wrapped one does: a provider's latency without a provider. Bench-only, so no production path
 * can slow down; both sides of the 100 ms comparison wrap the same scripted model with it.
 */
export function withLatency(model: LanguageModelV4, latencyMs: number): LanguageModelV4 {
  const middleware: LanguageModelMiddleware = {
    specificationVersion: "v4",
    wrapGenerate: async ({ doGenerate, params }) => {
      await sleep(latencyMs, undefined, { signal: params.abortSignal });
      return doGenerate();
    },
    wrapStream: async ({ doStream, params }) => {
      await sleep(latencyMs, undefined, { signal: params.abortSignal });
      return doStream();
    },
  };
  return wrapLanguageModel({ model, middleware });
}

/** The provider with every language model it gives wrapped by `withLatency`. */
export function withLatencyProvider(provider: ProviderV4, latencyMs: number): ProviderV4 {
  const models = new Map<string, LanguageModelV4>();
  return {
    ...provider,
    languageModel: (modelId) => {
      let model = models.get(modelId);
      if (model === undefined) {
        model = withLatency(provider.languageModel(modelId), latencyMs);
        models.set(modelId, model);
      }
      return model;
    },
  };
}
