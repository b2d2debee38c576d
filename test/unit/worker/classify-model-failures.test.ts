import assert from "node:assert/strict";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, it } from "node:test";
import { APICallError } from "@ai-sdk/provider";
import { ApplicationFailure } from "@temporalio/common";
import { createModelProvider } from "../../../src/llm/model-provider.ts";
import { testModelAccess } from "../../support/test-model-access.ts";
import { createRedactor } from "../../../src/worker/redact-secrets.ts";
import {
  classifyModelFailure,
  withClassifiedFailures,
} from "../../../src/worker/classify-model-failures.ts";

const apiError = (statusCode: number, headers: Record<string, string> = {}) =>
  new APICallError({
    message: `status ${statusCode}`,
    url: "http://127.0.0.1/v1/chat/completions",
    requestBodyValues: {},
    statusCode,
    responseHeaders: headers,
    isRetryable: statusCode === 429 || statusCode >= 500,
  });

function failureOf(error: unknown): ApplicationFailure {
  const classified = classifyModelFailure(error);
  assert.ok(
    classified instanceof ApplicationFailure,
    `not an ApplicationFailure: ${String(classified)}`,
  );
  return classified;
}

describe("model failures are classified for the activity's retry policy", () => {
  it("a provider 4xx is not retried", () => {
    const failure = failureOf(apiError(400));
    assert.equal(failure.nonRetryable, true);
    assert.equal(failure.type, "ModelRequestRejected");
    assert.match(failure.message, /HTTP 400/);
  });

  it("a 429 is retried, after the provider's Retry-After when it gives one", () => {
    const failure = failureOf(apiError(429, { "retry-after": "2" }));
    assert.equal(failure.nonRetryable, false);
    assert.equal(failure.nextRetryDelay, 2000);
    assert.equal(failureOf(apiError(503)).nextRetryDelay, undefined);
  });

  it("a malformed model id is not retried", () => {
    const provider = withClassifiedFailures(
      createModelProvider({ scripted: {} }, testModelAccess),
      createRedactor([]),
    );
    assert.throws(
      () => provider.languageModel("gpt-4o"),
      (error: unknown) =>
        error instanceof ApplicationFailure && error.nonRetryable && error.type === "ModelIdError",
    );
  });

  it("a missing script fails the call non-retryably", async () => {
    const model = withClassifiedFailures(
      createModelProvider({ scripted: {} }, testModelAccess),
      createRedactor([]),
    ).languageModel(`scripted:script:${join(tmpdir(), "nonexistent-agentdock", "script.json")}`);
    await assert.rejects(
      Promise.resolve(
        model.doGenerate({ prompt: [{ role: "user", content: [{ type: "text", text: "hi" }] }] }),
      ),
      (error: unknown) =>
        error instanceof ApplicationFailure &&
        error.nonRetryable &&
        error.type === "ScriptFileError",
    );
  });

  it("unknown errors pass through unchanged (retried by the activity policy)", () => {
    const error = new Error("socket hang up");
    assert.equal(classifyModelFailure(error), error);
  });
});
