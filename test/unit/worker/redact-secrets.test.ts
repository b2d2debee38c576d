import assert from "node:assert/strict";
import { describe, it } from "node:test";
import type { LanguageModelV4StreamPart, ProviderV4 } from "@ai-sdk/provider";
import { ApplicationFailure } from "@temporalio/common";
import {
  convertArrayToReadableStream,
  convertReadableStreamToArray,
  MockLanguageModelV4,
} from "ai/test";
import { withClassifiedFailures } from "../../../src/worker/classify-model-failures.ts";
import { createRedactor, secretsFromEnv } from "../../../src/worker/redact-secrets.ts";

describe("the worker's redactor", () => {
  const redactor = createRedactor(["plain-configured-secret-value"]);

  const cases: [string, string][] = [
    ["key plain-configured-secret-value leaked", "key [redacted] leaked"],
    [
      "Incorrect API key provided: sk-proj-abcdefghijklmnop",
      "Incorrect API key provided: [redacted]",
    ],
    ["x-api-key sk-ant-api03-abcdefghijkl", "x-api-key [redacted]"],
    ["Authorization: Bearer abc.def-ghi_jkl123", "Authorization: Bearer [redacted]"],
    ['{"api_key": "0123456789abcdef0123456789"}', '{"api_key": "[redacted]"}'],
    ["token=ZXhhbXBsZXRva2VuMTIzNDU2Nzg5MA==", "token=[redacted]"],
    ["used 1234 tokens and the key step", "used 1234 tokens and the key step"],
    ["HTTP 400: the model name is wrong", "HTTP 400: the model name is wrong"],
  ];
  for (const [input, expected] of cases) {
    it(`turns ${JSON.stringify(input)} into ${JSON.stringify(expected)}`, () => {
      assert.equal(redactor.text(input), expected);
    });
  }

  it("redacts an ApplicationFailure's message, stack, details and cause", () => {
    const cause = new Error("upstream said plain-configured-secret-value");
    const failure = ApplicationFailure.create({
      message: "rejected: plain-configured-secret-value",
      type: "ModelRequestRejected",
      nonRetryable: true,
      details: [{ body: "echo plain-configured-secret-value", status: 401 }],
      cause,
    });
    const redacted = redactor.error(failure);
    assert.equal(redacted, failure);
    assert.equal(failure.message, "rejected: [redacted]");
    assert.ok(!(failure.stack ?? "").includes("plain-configured-secret-value"));
    assert.deepEqual(failure.details, [{ body: "echo [redacted]", status: 401 }]);
    assert.equal(cause.message, "upstream said [redacted]");
    assert.equal(failure.nonRetryable, true);
    assert.equal(failure.type, "ModelRequestRejected");
  });

  it("takes the values of *_API_KEY, *_TOKEN, *_SECRET and *_PASSWORD variables", () => {
    assert.deepEqual(
      secretsFromEnv({
        OPENAI_API_KEY: "a",
        AGENTDOCK_API_TOKEN: "b",
        DB_PASSWORD: "c",
        SOME_SECRET: "d",
        OPENAI_BASE_URL: "http://x",
        HOME: "/root",
      }).sort(),
      ["a", "b", "c", "d"],
    );
  });
});

describe("the model's stream on the worker", () => {
  it("carries no secret in an error part or a raw chunk a provider streams", async () => {
    const secret = "streamed-secret-value-123";
    const model = new MockLanguageModelV4({
      doStream: () =>
        Promise.resolve({
          stream: convertArrayToReadableStream<LanguageModelV4StreamPart>([
            { type: "raw", rawValue: { error: { message: `bad key ${secret}` } } },
            { type: "error", error: { message: `Incorrect API key provided: ${secret}` } },
            { type: "error", error: new Error(`upstream echoed ${secret}`) },
          ]),
        }),
    });
    const provider: ProviderV4 = {
      specificationVersion: "v4",
      languageModel: () => model,
      embeddingModel: () => {
        throw new Error("not used");
      },
      imageModel: () => {
        throw new Error("not used");
      },
    };
    const wrapped = withClassifiedFailures(provider, createRedactor([secret])).languageModel("m");
    const { stream } = await wrapped.doStream({ prompt: [] });
    const parts = await convertReadableStreamToArray(stream);
    const shown = JSON.stringify(parts, (_key, value: unknown) =>
      value instanceof Error ? value.message : value,
    );
    assert.equal(parts.length, 3);
    assert.ok(!shown.includes(secret), shown);
    assert.match(shown, /Incorrect API key provided: \[redacted\]/);
  });
});
