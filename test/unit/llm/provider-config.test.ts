import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { ProviderConfigError } from "../../../src/llm/provider-config-error.ts";
import { providerConfigFromEnv } from "../../../src/llm/provider-config.ts";

describe("provider settings from the environment", () => {
  it("gives only the scripted provider when nothing is set", () => {
    assert.deepEqual(providerConfigFromEnv({}), { scripted: {} });
  });

  it("reads every provider's key and base URL", () => {
    const config = providerConfigFromEnv({
      OPENAI_API_KEY: "sk-openai",
      OPENAI_BASE_URL: "https://proxy.example.com/v1",
      ANTHROPIC_API_KEY: "sk-ant",
      ANTHROPIC_BASE_URL: "https://anthropic.example.com/v1",
      OPENAI_COMPATIBLE_API_KEY: "local-key",
      OPENAI_COMPATIBLE_BASE_URL: "http://127.0.0.1:11434/v1",
      UNRELATED: "ignored",
    });

    assert.deepEqual(config, {
      openai: { apiKey: "sk-openai", baseURL: "https://proxy.example.com/v1" },
      anthropic: { apiKey: "sk-ant", baseURL: "https://anthropic.example.com/v1" },
      openaiCompatible: { apiKey: "local-key", baseURL: "http://127.0.0.1:11434/v1" },
      scripted: {},
    });
  });

  it("treats blank variables as unset and trims values", () => {
    const config = providerConfigFromEnv({
      OPENAI_API_KEY: "  sk-openai \n",
      OPENAI_BASE_URL: "",
      ANTHROPIC_API_KEY: "   ",
      OPENAI_COMPATIBLE_BASE_URL: " http://127.0.0.1:8000/v1 ",
    });

    assert.deepEqual(config, {
      openai: { apiKey: "sk-openai" },
      openaiCompatible: { baseURL: "http://127.0.0.1:8000/v1" },
      scripted: {},
    });
  });

  it("leaves a provider out when only its base URL is set, so its key is asked for on use", () => {
    assert.deepEqual(providerConfigFromEnv({ OPENAI_BASE_URL: "https://proxy.example.com/v1" }), {
      scripted: {},
    });
  });

  it("names every variable holding something that is not an http(s) URL", () => {
    assert.throws(
      () =>
        providerConfigFromEnv({
          OPENAI_API_KEY: "sk-secret-value",
          OPENAI_BASE_URL: "proxy.example.com",
          ANTHROPIC_BASE_URL: "ftp://anthropic.example.com",
          OPENAI_COMPATIBLE_BASE_URL: "http://127.0.0.1:11434/v1",
        }),
      (error: unknown) => {
        assert.ok(error instanceof ProviderConfigError);
        assert.deepEqual(error.variables, ["OPENAI_BASE_URL", "ANTHROPIC_BASE_URL"]);
        assert.match(
          error.message,
          /OPENAI_BASE_URL must be an http\(s\) URL .*"proxy\.example\.com"/,
        );
        assert.match(error.message, /ANTHROPIC_BASE_URL must be an http\(s\) URL/);
        assert.doesNotMatch(error.message, /sk-secret-value/);
        return true;
      },
    );
  });
});
