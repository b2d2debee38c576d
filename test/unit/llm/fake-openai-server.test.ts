import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { startFakeOpenAIServer } from "../../support/fake-openai-server.ts";

async function post(url: string, body: unknown): Promise<{ status: number; json: unknown }> {
  const response = await fetch(url, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify(body),
  });
  return { status: response.status, json: await response.json() };
}

const request = { model: "fake-model", messages: [{ role: "user", content: "Hi" }] };

describe("the fake OpenAI chat-completions server", () => {
  it("answers a scripted tool call in the OpenAI shape and records the request", async (t) => {
    const server = await startFakeOpenAIServer([
      { toolCall: { name: "think", arguments: { topic: "x" } } },
    ]);
    t.after(() => server.close());

    const { status, json } = await post(`${server.url}/v1/chat/completions`, request);

    assert.equal(status, 200);
    assert.deepEqual((json as { choices: unknown[] }).choices, [
      {
        index: 0,
        message: {
          role: "assistant",
          content: null,
          tool_calls: [
            {
              id: "call_1",
              type: "function",
              function: { name: "think", arguments: '{"topic":"x"}' },
            },
          ],
        },
        finish_reason: "tool_calls",
      },
    ]);
    assert.deepEqual(server.requests[0]?.body, request);
    assert.equal(server.pendingReplies(), 0);
  });

  it("answers 400 naming the request when no scripted reply is left", async (t) => {
    const server = await startFakeOpenAIServer([{ text: "only one" }]);
    t.after(() => server.close());

    assert.equal((await post(`${server.url}/v1/chat/completions`, request)).status, 200);
    const { status, json } = await post(`${server.url}/v1/chat/completions`, request);

    assert.equal(status, 400);
    assert.deepEqual(json, {
      error: {
        message: "fake OpenAI server: no scripted reply left for request 2",
        type: "fake_script_exhausted",
      },
    });
    assert.equal(server.requests.length, 2);
  });

  it("answers a scripted status with an OpenAI error body", async (t) => {
    const server = await startFakeOpenAIServer([{ status: 429 }]);
    t.after(() => server.close());

    const { status, json } = await post(`${server.url}/v1/chat/completions`, request);

    assert.equal(status, 429);
    assert.deepEqual(json, {
      error: { message: "fake OpenAI server: scripted HTTP 429", type: "rate_limit_exceeded" },
    });
  });

  it("answers 404 to other routes without consuming a reply", async (t) => {
    const server = await startFakeOpenAIServer([{ text: "kept" }]);
    t.after(() => server.close());

    const { status } = await post(`${server.url}/v1/completions`, request);

    assert.equal(status, 404);
    assert.equal(server.requests.length, 0);
    assert.equal(server.pendingReplies(), 1);
  });
});
