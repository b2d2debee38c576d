import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { CancelledFailure } from "@temporalio/common";
import { MockActivityEnvironment } from "@temporalio/testing";
import type { LanguageModel } from "ai";
import { createToolActivities } from "../../../activities/index.ts";
import type { RunToolInput } from "../../../activities/index.ts";
import { createSearxngProvider } from "../../../src/search/index.ts";
import { searxngResults, sendJson, startSearxngServer } from "../search/searxng-test-server.ts";

const searchCall: RunToolInput = {
  tool: "search",
  input: { query: "x", limit: 1 },
  modelId: "test-model",
  sessionId: "session-1",
  toolCallId: "call-7",
};

function noModel(): LanguageModel {
  throw new Error("no model expected in this test");
}

describe("runTool inside an activity", () => {
  it("heartbeats with the tool and call id while a search runs", async (t) => {
    const server = await startSearxngServer(t, (_url, response) => {
      setTimeout(() => {
        sendJson(response, 200, searxngResults(3));
      }, 30);
    });
    const { runTool } = createToolActivities({
      searchProvider: createSearxngProvider({ baseUrl: server.baseUrl }),
      summarizeModel: noModel,
    });
    const env = new MockActivityEnvironment();
    const heartbeats: unknown[] = [];
    env.on("heartbeat", (details: unknown) => heartbeats.push(details));

    const output: unknown = await env.run(runTool, searchCall);

    assert.deepEqual(output, {
      type: "search_result",
      results: [{ title: "Result 1", url: "https://example.org/1", snippet: "Snippet 1" }],
    });
    assert.ok(heartbeats.length >= 1);
    assert.deepEqual(heartbeats[0], { tool: "search", toolCallId: "call-7" });
  });

  it("aborts the search request when the activity is cancelled", async (t) => {
    let requestClosed!: () => void;
    const closed = new Promise<void>((resolve) => (requestClosed = resolve));
    const env = new MockActivityEnvironment();
    const server = await startSearxngServer(t, (_url, response) => {
      response.on("close", requestClosed);
      env.cancel();
    });
    const { runTool } = createToolActivities({
      searchProvider: createSearxngProvider({ baseUrl: server.baseUrl }),
      summarizeModel: noModel,
    });

    await assert.rejects(env.run(runTool, searchCall), CancelledFailure);
    await closed;
  });
});
