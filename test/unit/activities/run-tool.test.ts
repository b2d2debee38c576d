import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { ApplicationFailure } from "@temporalio/common";
import { APICallError } from "ai";
import type { LanguageModel } from "ai";
import { MockLanguageModelV4 } from "ai/test";
import { createToolActivities } from "../../../activities/index.ts";
import type { RunToolInput, ToolFailureType } from "../../../activities/index.ts";
import { createSearxngProvider } from "../../../src/search/index.ts";
import { toolCatalogue } from "../../../src/tools/index.ts";
import { searxngResults, sendJson, startSearxngServer } from "../search/searxng-test-server.ts";

function call(tool: string, input: unknown): RunToolInput {
  return { tool, input, modelId: "test-model", sessionId: "session-1", toolCallId: "call-1" };
}

function noModel(modelId: string): LanguageModel {
  throw new Error(`no model expected in this test, asked for ${modelId}`);
}

function assertFailure(expected: {
  type: ToolFailureType;
  nonRetryable: boolean;
  message: RegExp;
}): (error: unknown) => true {
  return (error) => {
    assert.ok(
      error instanceof ApplicationFailure,
      `expected ApplicationFailure, got ${String(error)}`,
    );
    assert.equal(error.type, expected.type);
    assert.equal(error.nonRetryable, expected.nonRetryable);
    assert.match(error.message, expected.message);
    return true;
  };
}

function textModel(text: string): MockLanguageModelV4 {
  return new MockLanguageModelV4({
    doGenerate: {
      content: [{ type: "text", text }],
      finishReason: { unified: "stop", raw: "stop" },
      usage: {
        inputTokens: { total: 10, noCache: 10, cacheRead: 0, cacheWrite: 0 },
        outputTokens: { total: 5, text: 5, reasoning: 0 },
      },
      warnings: [],
    },
  });
}

const cognitiveCases = [
  {
    tool: "think",
    input: { topic: "Cache invalidation", reasoning: "1. Keys expire.\n2. Writes purge." },
    content: "## 🧠 Thinking: Cache invalidation\n\n1. Keys expire.\n2. Writes purge.",
  },
  {
    tool: "reflect",
    input: { topic: "Flaky test", reflection: "**What happened** It timed out." },
    content: "## 🪞 Reflection: Flaky test\n\n**What happened** It timed out.",
  },
  {
    tool: "critique",
    input: { subject: "README", analysis: "**Strengths** Short." },
    content: "## 🔍 Critique: README\n\n**Strengths** Short.",
  },
  {
    tool: "debate",
    input: { topic: "Tabs vs spaces", perspectives: "**Introduction** Old question." },
    content: "## ⚖️ Debate: Tabs vs spaces\n\n**Introduction** Old question.",
  },
  {
    tool: "brainstorm",
    input: { challenge: "Onboarding", ideas: "**Problem framing** Slow start." },
    content: "## 💡 Brainstorm: Onboarding\n\n**Problem framing** Slow start.",
  },
  {
    tool: "compare",
    input: { topic: "Postgres vs MySQL", comparison: "| a | b |\n|---|---|" },
    content: "## 📊 Comparison: Postgres vs MySQL\n\n| a | b |\n|---|---|",
  },
];

describe("runTool: cognitive tools", () => {
  const { runTool } = createToolActivities({ summarizeModel: noModel });

  for (const { tool, input, content } of cognitiveCases) {
    it(`${tool} returns its Markdown as plain JSON`, async () => {
      const output = await runTool(call(tool, input));
      assert.deepEqual(output, { type: `${tool}_result`, content });
      assert.deepEqual(JSON.parse(JSON.stringify(output)), output);
    });
  }

  it("fails an input missing a field as a non-retryable ToolInputError naming the field", async () => {
    await assert.rejects(
      runTool(call("think", { topic: "Caching" })),
      assertFailure({
        type: "ToolInputError",
        nonRetryable: true,
        message: /^think: "reasoning" must be a non-empty string$/,
      }),
    );
  });

  it("names an unknown field and the allowed ones", async () => {
    await assert.rejects(
      runTool(call("critique", { subject: "x", analysis: "y", score: 3 })),
      assertFailure({
        type: "ToolInputError",
        nonRetryable: true,
        message: /critique: unknown field "score"; allowed fields are "subject", "analysis"/,
      }),
    );
  });

  it("attaches the issues as failure details", async () => {
    await assert.rejects(runTool(call("compare", "not an object")), (error) => {
      assert.ok(error instanceof ApplicationFailure);
      assert.deepEqual(error.details, [
        {
          tool: "compare",
          issues: [
            {
              path: "",
              message: 'input must be a JSON object with the fields "topic", "comparison"',
            },
          ],
        },
      ]);
      return true;
    });
  });
});

describe("runTool: unknown tools", () => {
  const { runTool } = createToolActivities({ summarizeModel: noModel });

  it("fails a tool outside the catalogue as non-retryable UnknownTool listing the tools", async () => {
    await assert.rejects(
      runTool(call("browse", { url: "https://example.org" })),
      assertFailure({
        type: "UnknownTool",
        nonRetryable: true,
        message:
          /^Unknown tool "browse"; the available tools are think, reflect, .*, search, deep_research$/,
      }),
    );
  });

  it("runs every tool in the catalogue (none is reported unknown)", async () => {
    for (const { name } of toolCatalogue) {
      await assert.rejects(runTool(call(name, {})), (error) => {
        assert.ok(error instanceof ApplicationFailure);
        assert.notEqual(error.type, "UnknownTool", name);
        return true;
      });
    }
  });
});

describe("runTool: summarize", () => {
  it("asks the session's model for a faithful summary with the focus and returns it", async () => {
    const model = textModel("  - Revenue grew 12%.\n- Hiring paused.  ");
    const asked: string[] = [];
    const { runTool } = createToolActivities({
      summarizeModel: (modelId) => {
        asked.push(modelId);
        return model;
      },
    });
    const text = "Q3 report. Revenue grew 12% year on year. Hiring is paused until January.";

    const output = await runTool(call("summarize", { text, focus: "financial results" }));

    assert.deepEqual(output, {
      type: "summarize_result",
      content: "- Revenue grew 12%.\n- Hiring paused.",
    });
    assert.deepEqual(asked, ["test-model"]);
    assert.equal(model.doGenerateCalls.length, 1);
    const prompt = JSON.stringify(model.doGenerateCalls[0]?.prompt);
    assert.ok(prompt.includes(text), "the prompt carries the text");
    assert.ok(prompt.includes("financial results"), "the prompt carries the focus");
    assert.match(prompt, /faithful/);
  });

  it("summarises without a focus", async () => {
    const model = textModel("Short.");
    const { runTool } = createToolActivities({ summarizeModel: () => model });

    const output = await runTool(call("summarize", { text: "A long text." }));

    assert.deepEqual(output, { type: "summarize_result", content: "Short." });
    assert.doesNotMatch(JSON.stringify(model.doGenerateCalls[0]?.prompt), /Focus/);
  });

  it("rejects empty text without calling the model", async () => {
    const model = textModel("unused");
    const { runTool } = createToolActivities({ summarizeModel: () => model });
    await assert.rejects(
      runTool(call("summarize", { text: "   " })),
      assertFailure({ type: "ToolInputError", nonRetryable: true, message: /"text"/ }),
    );
    assert.equal(model.doGenerateCalls.length, 0);
  });

  it("fails a provider's client error as non-retryable SummarizeFailed", async () => {
    const model = new MockLanguageModelV4({
      doGenerate: () => {
        throw new APICallError({
          message: "context length exceeded",
          url: "http://model.test/v1/chat",
          requestBodyValues: {},
          statusCode: 400,
          isRetryable: false,
        });
      },
    });
    const { runTool } = createToolActivities({ summarizeModel: () => model });
    await assert.rejects(
      runTool(call("summarize", { text: "x" })),
      assertFailure({
        type: "SummarizeFailed",
        nonRetryable: true,
        message: /context length exceeded/,
      }),
    );
  });

  it("fails a provider's server error as retryable SummarizeFailed", async () => {
    const model = new MockLanguageModelV4({
      doGenerate: () => {
        throw new APICallError({
          message: "overloaded",
          url: "http://model.test/v1/chat",
          requestBodyValues: {},
          statusCode: 503,
          isRetryable: true,
        });
      },
    });
    const { runTool } = createToolActivities({ summarizeModel: () => model });
    await assert.rejects(
      runTool(call("summarize", { text: "x" })),
      assertFailure({ type: "SummarizeFailed", nonRetryable: false, message: /overloaded/ }),
    );
  });

  it("fails as non-retryable when the session's model cannot be resolved", async () => {
    const { runTool } = createToolActivities({
      summarizeModel: (modelId) => {
        throw new Error(`unknown model ${modelId}`);
      },
    });
    await assert.rejects(
      runTool(call("summarize", { text: "x" })),
      assertFailure({
        type: "SummarizeFailed",
        nonRetryable: true,
        message: /unknown model test-model/,
      }),
    );
  });
});

describe("runTool: search", () => {
  it("without a provider fails as SearchNotConfigured saying how to configure it", async () => {
    const { runTool } = createToolActivities({ summarizeModel: noModel });
    await assert.rejects(
      runTool(call("search", { query: "temporal" })),
      assertFailure({
        type: "SearchNotConfigured",
        nonRetryable: true,
        message: /SEARCH_PROVIDER=searxng and SEARXNG_URL=http:\/\//,
      }),
    );
  });

  it("returns the provider's results, at most `limit`", async (t) => {
    const server = await startSearxngServer(t, (_url, response) => {
      sendJson(response, 200, searxngResults(10));
    });
    const { runTool } = createToolActivities({
      searchProvider: createSearxngProvider({ baseUrl: server.baseUrl }),
      summarizeModel: noModel,
    });

    const output = await runTool(call("search", { query: "durable execution", limit: 2 }));

    assert.deepEqual(output, {
      type: "search_result",
      results: [
        { title: "Result 1", url: "https://example.org/1", snippet: "Snippet 1" },
        { title: "Result 2", url: "https://example.org/2", snippet: "Snippet 2" },
      ],
    });
    assert.equal(server.requests[0]?.searchParams.get("q"), "durable execution");
  });

  it("defaults to 8 results", async (t) => {
    const server = await startSearxngServer(t, (_url, response) => {
      sendJson(response, 200, searxngResults(20));
    });
    const { runTool } = createToolActivities({
      searchProvider: createSearxngProvider({ baseUrl: server.baseUrl }),
      summarizeModel: noModel,
    });
    const output = await runTool(call("search", { query: "x" }));
    assert.ok(output.type === "search_result");
    assert.equal(output.results.length, 8);
  });

  it("rejects an out-of-range limit as a ToolInputError naming the field", async (t) => {
    const server = await startSearxngServer(t, (_url, response) => {
      sendJson(response, 200, searxngResults(1));
    });
    const { runTool } = createToolActivities({
      searchProvider: createSearxngProvider({ baseUrl: server.baseUrl }),
      summarizeModel: noModel,
    });
    await assert.rejects(
      runTool(call("search", { query: "x", limit: 0 })),
      assertFailure({
        type: "ToolInputError",
        nonRetryable: true,
        message: /^search: "limit" must be a whole number from 1 to 25$/,
      }),
    );
    assert.equal(server.requests.length, 0);
  });

  it("fails a server error (500) as retryable SearchUnavailable", async (t) => {
    const server = await startSearxngServer(t, (_url, response) => {
      sendJson(response, 500, {});
    });
    const { runTool } = createToolActivities({
      searchProvider: createSearxngProvider({ baseUrl: server.baseUrl }),
      summarizeModel: noModel,
    });
    await assert.rejects(
      runTool(call("search", { query: "x" })),
      assertFailure({ type: "SearchUnavailable", nonRetryable: false, message: /HTTP 500/ }),
    );
  });

  it("fails a client error (400) as non-retryable SearchFailed", async (t) => {
    const server = await startSearxngServer(t, (_url, response) => {
      sendJson(response, 400, {});
    });
    const { runTool } = createToolActivities({
      searchProvider: createSearxngProvider({ baseUrl: server.baseUrl }),
      summarizeModel: noModel,
    });
    await assert.rejects(
      runTool(call("search", { query: "x" })),
      assertFailure({ type: "SearchFailed", nonRetryable: true, message: /HTTP 400/ }),
    );
  });

  it("fails a slow server past the timeout as retryable SearchUnavailable", async (t) => {
    const server = await startSearxngServer(t, () => {
      // Never answers.
    });
    const { runTool } = createToolActivities({
      searchProvider: createSearxngProvider({ baseUrl: server.baseUrl, timeoutMs: 100 }),
      summarizeModel: noModel,
    });
    await assert.rejects(
      runTool(call("search", { query: "x" })),
      assertFailure({
        type: "SearchUnavailable",
        nonRetryable: false,
        message: /did not answer within 100 ms/,
      }),
    );
  });
});
