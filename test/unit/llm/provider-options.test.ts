import assert from "node:assert/strict";
import { after, before, describe, it } from "node:test";
import { jsonSchema, streamText, tool } from "ai";
import { ModelIdError } from "../../../src/llm/model-id-error.ts";
import { decodeModelId, encodeModelId } from "../../../src/llm/model-id.ts";
import { createModelProvider } from "../../../src/llm/model-provider.ts";
import { ProviderConfigError } from "../../../src/llm/provider-config-error.ts";
import { providerConfigFromEnv, providerSecrets } from "../../../src/llm/provider-config.ts";
import {
  offeredFunctions,
  startFakeGeminiServer,
  type FakeGeminiServer,
} from "../../support/fake-gemini-server.ts";
import { testModelAccess } from "../../support/test-model-access.ts";

describe("provider options travel in the model id", () => {
  it("appends them as JSON with sorted keys, so equal options make equal ids", () => {
    const id = encodeModelId({
      provider: "gemini",
      model: "gemini-2.5-flash",
      providerOptions: {
        useSearchGrounding: true,
        safetySettings: [{ threshold: "OFF", category: "HARM_CATEGORY_HARASSMENT" }],
      },
    });
    assert.equal(
      id,
      'gemini:gemini-2.5-flash#{"safetySettings":[{"category":"HARM_CATEGORY_HARASSMENT","threshold":"OFF"}],"useSearchGrounding":true}',
    );
    assert.deepEqual(decodeModelId(id), {
      provider: "gemini",
      model: "gemini-2.5-flash",
      providerOptions: {
        safetySettings: [{ category: "HARM_CATEGORY_HARASSMENT", threshold: "OFF" }],
        useSearchGrounding: true,
      },
    });
  });

  it("keeps the id of a template without options unchanged (recorded histories replay)", () => {
    assert.equal(
      encodeModelId({ provider: "groq", model: "qwen-qwq-32b", providerOptions: {} }),
      "groq:qwen-qwq-32b",
    );
  });

  it("decodes options after a base URL whose model name holds @ and :", () => {
    const id = encodeModelId({
      provider: "openai-compatible",
      model: "team@llama:70b",
      baseURL: "http://127.0.0.1:11434/v1",
      providerOptions: { extractReasoning: true },
    });
    assert.deepEqual(decodeModelId(id), {
      provider: "openai-compatible",
      model: "team@llama:70b",
      baseURL: "http://127.0.0.1:11434/v1",
      providerOptions: { extractReasoning: true },
    });
  });

  it("refuses options for the scripted model and the reserved #{ in a model name", () => {
    assert.throws(
      () => encodeModelId({ provider: "scripted", model: "auto", providerOptions: { x: 1 } }),
      (error: unknown) => error instanceof ModelIdError && error.field === "llm.providerOptions",
    );
    assert.throws(
      () => encodeModelId({ provider: "groq", model: "odd#{name" }),
      (error: unknown) => error instanceof ModelIdError && error.field === "llm.model",
    );
    assert.throws(() => decodeModelId('groq:m#{"a":'), /provider options that are not JSON/);
  });
});

describe("the worker checks provider options again before building a model", () => {
  const provider = createModelProvider(
    { scripted: {}, gemini: { apiKey: "k", baseURL: "http://127.0.0.1:9/v1beta" } },
    testModelAccess,
  );

  it("refuses options the provider's schema does not take, naming the setting", () => {
    assert.throws(
      () => provider.languageModel('gemini:gemini-2.5-flash#{"useSearchGrounding":"yes"}'),
      (error: unknown) =>
        error instanceof ModelIdError &&
        error.field === "llm.providerOptions" &&
        /providerOptions\.useSearchGrounding/.test(error.message),
    );
    assert.throws(
      () => provider.languageModel('gemini:gemini-2.5-flash#{"reasoningFormat":"parsed"}'),
      /gemini does not take/,
    );
  });

  it("names the variable to set for a provider without a key", () => {
    assert.throws(
      () => provider.languageModel("deepseek:deepseek-chat"),
      (error: unknown) =>
        error instanceof ProviderConfigError &&
        error.variables.includes("DEEPSEEK_API_KEY") &&
        /DeepSeek model "deepseek-chat" needs an API key: set DEEPSEEK_API_KEY/.test(error.message),
    );
  });
});

describe("provider keys from the environment, under the names AgentDock users set", () => {
  it("reads GEMINI_API_KEY, GROQ_API_KEY, DEEPSEEK_API_KEY and CEREBRAS_API_KEY, with base URLs", () => {
    const config = providerConfigFromEnv({
      GEMINI_API_KEY: "g",
      GROQ_API_KEY: "q",
      DEEPSEEK_API_KEY: "d",
      CEREBRAS_API_KEY: "c",
      CEREBRAS_BASE_URL: "http://127.0.0.1:8081/v1",
    });
    assert.deepEqual(config, {
      gemini: { apiKey: "g" },
      groq: { apiKey: "q" },
      deepseek: { apiKey: "d" },
      cerebras: { apiKey: "c", baseURL: "http://127.0.0.1:8081/v1" },
      scripted: {},
    });
    assert.deepEqual(providerSecrets(config).sort(), ["c", "d", "g", "q"]);
  });

  it("takes the AI SDK's GOOGLE_GENERATIVE_AI_API_KEY when GEMINI_API_KEY is unset", () => {
    assert.deepEqual(providerConfigFromEnv({ GOOGLE_GENERATIVE_AI_API_KEY: "g2" }).gemini, {
      apiKey: "g2",
    });
  });

  it("names a base URL variable holding something that is not a URL", () => {
    assert.throws(
      () => providerConfigFromEnv({ GROQ_API_KEY: "q", GROQ_BASE_URL: "groq.local" }),
      (error: unknown) =>
        error instanceof ProviderConfigError && error.variables.includes("GROQ_BASE_URL"),
    );
  });
});

describe("Gemini search grounding", () => {
  let gemini: FakeGeminiServer;
  before(async () => {
    gemini = await startFakeGeminiServer();
  });
  after(async () => {
    await gemini.close();
  });

  function model() {
    return createModelProvider(
      { scripted: {}, gemini: { apiKey: "k", baseURL: `${gemini.url}/v1beta` } },
      testModelAccess,
    ).languageModel('gemini:gemini-2.5-flash#{"useSearchGrounding":true}');
  }

  it("adds Google Search to a call that offers no tools", async () => {
    gemini.enqueue({ text: "Grounded answer." });
    const result = streamText({ model: model(), prompt: "What happened today?", maxRetries: 0 });
    assert.equal(await result.text, "Grounded answer.");
    assert.deepEqual(gemini.requests.at(-1)?.body.tools, [{ googleSearch: {} }]);
  });

  it("leaves it out of a call that offers the agent's tools, which keep working", async () => {
    gemini.enqueue({ toolCall: { name: "lookup", arguments: { query: "durable" } } });
    const result = streamText({
      model: model(),
      prompt: "Look it up",
      maxRetries: 0,
      tools: {
        lookup: tool({
          description: "Looks a query up.",
          inputSchema: jsonSchema<{ query: string }>({
            type: "object",
            properties: { query: { type: "string" } },
            required: ["query"],
          }),
        }),
      },
    });
    const calls = await result.toolCalls;
    assert.deepEqual(
      calls.map((call) => [call.toolName, call.input]),
      [["lookup", { query: "durable" }]],
    );
    const request = gemini.requests.at(-1);
    assert.ok(request !== undefined);
    assert.deepEqual(offeredFunctions(request), ["lookup"]);
    assert.ok(!(request.body.tools ?? []).some((entry) => "googleSearch" in entry));
  });
});
