import assert from "node:assert/strict";
import { describe, it } from "node:test";
import {
  decodeModelId,
  encodeModelId,
  modelProviders,
  type ModelRef,
} from "../../../src/llm/model-id.ts";
import { ModelIdError } from "../../../src/llm/model-id-error.ts";
import { llmProviders } from "../../../src/orchestration/template-schema.ts";

describe("model ids", () => {
  const roundTrips: [ModelRef, string][] = [
    [{ provider: "openai", model: "gpt-4o-mini" }, "openai:gpt-4o-mini"],
    [{ provider: "anthropic", model: "claude-sonnet-4-5" }, "anthropic:claude-sonnet-4-5"],
    [{ provider: "scripted", model: "auto" }, "scripted:auto"],
    [{ provider: "scripted", model: "script:/abs/path.json" }, "scripted:script:/abs/path.json"],
    [
      { provider: "scripted", model: "script:scripts/a@b.json" },
      "scripted:script:scripts/a@b.json",
    ],
    [
      { provider: "openai-compatible", model: "llama3.1", baseURL: "http://127.0.0.1:11434/v1" },
      "openai-compatible:llama3.1@http://127.0.0.1:11434/v1",
    ],
    [
      { provider: "openai-compatible", model: "qwen2.5:7b-instruct" },
      "openai-compatible:qwen2.5:7b-instruct",
    ],
    [
      {
        provider: "openai-compatible",
        model: "org/model:tag@v2",
        baseURL: "https://llm.example.com:8443/v1?x=1",
      },
      "openai-compatible:org/model:tag@v2@https://llm.example.com:8443/v1?x=1",
    ],
    [
      { provider: "openai", model: "gpt-4o", baseURL: "https://proxy.example.com/v1" },
      "openai:gpt-4o@https://proxy.example.com/v1",
    ],
  ];

  for (const [ref, id] of roundTrips) {
    it(`encodes ${JSON.stringify(ref)} as ${id} and decodes it back`, () => {
      assert.equal(encodeModelId(ref), id);
      assert.deepEqual(decodeModelId(id), ref);
    });
  }

  it("encodes a template's llm block as it is, ignoring its other settings", () => {
    const llm = { provider: "openai" as const, model: "gpt-4o-mini", temperature: 0.2 };
    assert.equal(encodeModelId(llm), "openai:gpt-4o-mini");
  });

  const badIds: [string, RegExp][] = [
    ["", /is not "<provider>:<model>"/],
    ["gpt-4o-mini", /is not "<provider>:<model>"/],
    [":gpt-4o", /is not "<provider>:<model>"/],
    ["mistral:large", /unknown provider "mistral"; use one of scripted, openai, anthropic/],
    ["openai:", /needs a model name/],
    ["openai:@http://127.0.0.1/v1", /needs a model name/],
    ["openai-compatible:llama@httpfoo", /base URL "httpfoo", which is not an http\(s\) URL/],
    ["scripted:clever", /scripted model "clever"; scripted models are "auto" or "script:/],
    ["scripted:script:", /scripted model "script:"/],
  ];
  for (const [id, message] of badIds) {
    it(`rejects the id "${id}" with a clear ModelIdError`, () => {
      assert.throws(
        () => decodeModelId(id),
        (error: unknown) => error instanceof ModelIdError && message.test(error.message),
      );
    });
  }

  const badRefs: [ModelRef, RegExp][] = [
    [{ provider: "openai", model: "" }, /needs a model name/],
    [{ provider: "openai", model: " gpt-4o" }, /without surrounding spaces/],
    [{ provider: "openai", model: "x@http-thing" }, /"@http" in its model name/],
    [{ provider: "openai", model: "gpt-4o", baseURL: "ftp://host/v1" }, /not an http\(s\) URL/],
    [{ provider: "scripted", model: "auto", baseURL: "http://h/v1" }, /sets a baseURL/],
    [{ provider: "scripted", model: "smart" }, /scripted models are "auto" or "script:/],
    [{ provider: "bedrock" as ModelRef["provider"], model: "m" }, /unknown provider/],
  ];
  for (const [ref, message] of badRefs) {
    it(`refuses to encode ${JSON.stringify(ref)}`, () => {
      assert.throws(
        () => encodeModelId(ref),
        (error: unknown) => error instanceof ModelIdError && message.test(error.message),
      );
    });
  }

  it("knows exactly the providers an agent template may name", () => {
    assert.deepEqual([...modelProviders], [...llmProviders]);
  });
});
