import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { APICallError, NoSuchModelError } from "@ai-sdk/provider";
import { ModelIdError } from "../../../src/llm/model-id-error.ts";
import { createModelProvider } from "../../../src/llm/model-provider.ts";
import { isNonRetryableModelError } from "../../../src/llm/non-retryable.ts";
import { ProviderConfigError } from "../../../src/llm/provider-config-error.ts";
import type { ProviderConfig } from "../../../src/llm/provider-config.ts";
import { ScriptExhaustedError } from "../../../src/llm/scripted/script-exhausted-error.ts";
import { testModelAccess } from "../../support/test-model-access.ts";

const fullConfig: ProviderConfig = {
  openai: { apiKey: "sk-test" },
  anthropic: { apiKey: "sk-ant-test" },
  openaiCompatible: { name: "ollama", baseURL: "http://127.0.0.1:11434/v1" },
  gemini: { apiKey: "g-test" },
  groq: { apiKey: "q-test" },
  deepseek: { apiKey: "d-test" },
  cerebras: { apiKey: "c-test" },
  scripted: {},
};

describe("the worker's model provider", () => {
  const routes: [string, string, string][] = [
    ["scripted:auto", "scripted", "auto"],
    ["scripted:script:/tmp/none.json", "scripted", "script:/tmp/none.json"],
    ["openai:gpt-4o-mini", "openai.responses", "gpt-4o-mini"],
    ["anthropic:claude-sonnet-4-5", "anthropic.messages", "claude-sonnet-4-5"],
    ["openai-compatible:llama3.1", "ollama.chat", "llama3.1"],
    ["openai-compatible:qwen2.5:7b@http://127.0.0.1:8000/v1", "ollama.chat", "qwen2.5:7b"],
    ["gemini:gemini-2.5-flash", "google.generative-ai", "gemini-2.5-flash"],
    ["groq:qwen-qwq-32b", "groq.chat", "qwen-qwq-32b"],
    ["deepseek:deepseek-chat", "deepseek.chat", "deepseek-chat"],
    ["cerebras:llama-3.3-70b", "cerebras.chat", "llama-3.3-70b"],
  ];
  for (const [id, provider, modelId] of routes) {
    it(`routes ${id} to the ${provider} model`, () => {
      const model = createModelProvider(fullConfig, testModelAccess).languageModel(id);

      assert.equal(model.specificationVersion, "v4");
      assert.equal(model.provider, provider);
      assert.equal(model.modelId, modelId);
    });
  }

  it("builds an OpenAI-compatible model from the id's base URL alone, without a key", () => {
    const model = createModelProvider({ scripted: {} }, testModelAccess).languageModel(
      "openai-compatible:llama3.1@http://127.0.0.1:11434/v1",
    );
    assert.equal(model.provider, "openai-compatible.chat");
  });

  it("returns the same instance for the same id", () => {
    const provider = createModelProvider(fullConfig, testModelAccess);
    assert.equal(provider.languageModel("openai:gpt-4o"), provider.languageModel("openai:gpt-4o"));
    assert.notEqual(provider.languageModel("openai:gpt-4o"), provider.languageModel("openai:o3"));
  });

  const missing: [string, string][] = [
    ["openai:gpt-4o-mini", "OPENAI_API_KEY"],
    ["anthropic:claude-sonnet-4-5", "ANTHROPIC_API_KEY"],
    ["openai-compatible:llama3.1", "OPENAI_COMPATIBLE_BASE_URL"],
    ["gemini:gemini-2.5-flash", "GEMINI_API_KEY"],
    ["groq:qwen-qwq-32b", "GROQ_API_KEY"],
    ["deepseek:deepseek-chat", "DEEPSEEK_API_KEY"],
    ["cerebras:llama-3.3-70b", "CEREBRAS_API_KEY"],
  ];
  for (const [id, variable] of missing) {
    it(`asks for ${variable} when ${id} cannot be built`, () => {
      assert.throws(
        () => createModelProvider({ scripted: {} }, testModelAccess).languageModel(id),
        (error: unknown) => {
          assert.ok(error instanceof ProviderConfigError);
          assert.deepEqual(error.variables, [variable]);
          assert.match(error.message, new RegExp(`set .*${variable}`));
          assert.ok(isNonRetryableModelError(error));
          return true;
        },
      );
    });
  }

  it("rejects a malformed id with a ModelIdError", () => {
    assert.throws(
      () => createModelProvider(fullConfig, testModelAccess).languageModel("gpt-4o"),
      (error: unknown) => error instanceof ModelIdError && isNonRetryableModelError(error),
    );
  });

  it("says embedding and image models are not supported", () => {
    const provider = createModelProvider(fullConfig, testModelAccess);
    assert.throws(
      () => provider.embeddingModel("openai:text-embedding-3-small"),
      (error: unknown) =>
        NoSuchModelError.isInstance(error) &&
        /embedding models are not supported/.test(error.message),
    );
    assert.throws(
      () => provider.imageModel("openai:dall-e-3"),
      (error: unknown) =>
        NoSuchModelError.isInstance(error) && /image models are not supported/.test(error.message),
    );
  });

  it("classifies which model errors a retry cannot fix", () => {
    const apiError = (statusCode: number) =>
      new APICallError({
        message: `status ${statusCode}`,
        url: "http://127.0.0.1/v1/chat/completions",
        requestBodyValues: {},
        statusCode,
      });

    assert.ok(isNonRetryableModelError(new ScriptExhaustedError("/s.json", 1, 2)));
    assert.ok(isNonRetryableModelError(apiError(401)));
    assert.ok(!isNonRetryableModelError(apiError(429)));
    assert.ok(!isNonRetryableModelError(apiError(503)));
    assert.ok(!isNonRetryableModelError(new Error("socket hang up")));
  });
});
