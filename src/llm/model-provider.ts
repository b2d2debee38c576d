import { createAnthropic } from "@ai-sdk/anthropic";
import { createCerebras } from "@ai-sdk/cerebras";
import { createDeepSeek } from "@ai-sdk/deepseek";
import { createGoogleGenerativeAI } from "@ai-sdk/google";
import { createGroq } from "@ai-sdk/groq";
import { createOpenAI } from "@ai-sdk/openai";
import { createOpenAICompatible } from "@ai-sdk/openai-compatible";
import { NoSuchModelError } from "@ai-sdk/provider";
import type { LanguageModelV4, ProviderV4 } from "@ai-sdk/provider";
import { checkModelAccess, type ModelAccess } from "./model-access.ts";
import { decodeModelId, type ModelRef } from "./model-id.ts";
import { ProviderConfigError } from "./provider-config-error.ts";
import { providerEnvVars, type KeyedSection, type ProviderConfig } from "./provider-config.ts";
import { providerOptionsMiddleware } from "./provider-options-middleware.ts";
import { wrapLanguageModel } from "ai";
import { createScriptedModel } from "./scripted/scripted-model.ts";

const defaultCompatibleName = "openai-compatible";

/**
 * The worker's AI SDK provider: `languageModel(modelId)` decodes an id made by `encodeModelId`
 * and returns the real provider model (one instance per id). A missing API key or base URL throws
 * a `ProviderConfigError` naming the variable to set; a malformed id throws a `ModelIdError`; an
 * id reaching what `access` does not allow throws a `ModelAccessError` before any request or
 * file read (the id comes from a workflow input, which the worker does not trust).
 */
export function createModelProvider(config: ProviderConfig, access: ModelAccess): ProviderV4 {
  const models = new Map<string, LanguageModelV4>();
  const scriptDir = config.scripted.scriptDir ?? process.cwd();
  return {
    specificationVersion: "v4",
    languageModel(modelId: string): LanguageModelV4 {
      const cached = models.get(modelId);
      if (cached !== undefined) return cached;
      const ref = decodeModelId(modelId);
      checkModelAccess(ref, access, scriptDir);
      const middleware = providerOptionsMiddleware(ref);
      const built = buildModel(ref, config);
      const model =
        middleware.length === 0 ? built : wrapLanguageModel({ model: built, middleware });
      models.set(modelId, model);
      return model;
    },
    embeddingModel(modelId: string): never {
      throw unsupported(modelId, "embeddingModel");
    },
    imageModel(modelId: string): never {
      throw unsupported(modelId, "imageModel");
    },
  };
}

function unsupported(modelId: string, modelType: "embeddingModel" | "imageModel"): Error {
  const kind = modelType === "embeddingModel" ? "embedding" : "image";
  return new NoSuchModelError({
    modelId,
    modelType,
    message: `${kind} models are not supported: agent sessions use language models only (asked for "${modelId}")`,
  });
}

function buildModel(ref: ModelRef, config: ProviderConfig): LanguageModelV4 {
  switch (ref.provider) {
    case "scripted":
      return createScriptedModel(ref.model, { scriptDir: config.scripted.scriptDir });
    case "openai": {
      const settings = config.openai ?? missingKey("OpenAI", ref, providerEnvVars.openai.apiKey);
      return createOpenAI({
        apiKey: settings.apiKey,
        baseURL: ref.baseURL ?? settings.baseURL,
      }).languageModel(ref.model);
    }
    case "anthropic": {
      const settings =
        config.anthropic ?? missingKey("Anthropic", ref, providerEnvVars.anthropic.apiKey);
      return createAnthropic({
        apiKey: settings.apiKey,
        baseURL: ref.baseURL ?? settings.baseURL,
      }).languageModel(ref.model);
    }
    case "openai-compatible": {
      const settings = config.openaiCompatible ?? {};
      const baseURL = ref.baseURL ?? settings.baseURL;
      if (baseURL === undefined) {
        const variable = providerEnvVars.openaiCompatible.baseURL;
        throw new ProviderConfigError(
          `OpenAI-compatible model "${ref.model}" needs a server URL: set llm.baseURL in the agent template or ${variable} in the worker's environment`,
          [variable],
        );
      }
      return createOpenAICompatible({
        name: settings.name ?? defaultCompatibleName,
        baseURL,
        apiKey: settings.apiKey,
        includeUsage: true,
      }).languageModel(ref.model);
    }
    case "gemini": {
      const settings = keyed("gemini", "Gemini", ref, config);
      return createGoogleGenerativeAI({
        apiKey: settings.apiKey,
        baseURL: ref.baseURL ?? settings.baseURL,
      }).languageModel(ref.model);
    }
    case "groq": {
      const settings = keyed("groq", "Groq", ref, config);
      return createGroq({
        apiKey: settings.apiKey,
        baseURL: ref.baseURL ?? settings.baseURL,
      }).languageModel(ref.model);
    }
    case "deepseek": {
      const settings = keyed("deepseek", "DeepSeek", ref, config);
      return createDeepSeek({
        apiKey: settings.apiKey,
        baseURL: ref.baseURL ?? settings.baseURL,
      }).languageModel(ref.model);
    }
    case "cerebras": {
      const settings = keyed("cerebras", "Cerebras", ref, config);
      return createCerebras({
        apiKey: settings.apiKey,
        baseURL: ref.baseURL ?? settings.baseURL,
      }).languageModel(ref.model);
    }
    default: {
      const unknown: never = ref.provider;
      throw new ProviderConfigError(`unknown model provider "${String(unknown)}"`, []);
    }
  }
}

function keyed(
  section: KeyedSection,
  label: string,
  ref: ModelRef,
  config: ProviderConfig,
): { apiKey: string; baseURL?: string | undefined } {
  return config[section] ?? missingKey(label, ref, providerEnvVars[section].apiKey);
}

function missingKey(label: string, ref: ModelRef, variable: string): never {
  throw new ProviderConfigError(
    `${label} model "${ref.model}" needs an API key: set ${variable} in the worker's environment`,
    [variable],
  );
}
