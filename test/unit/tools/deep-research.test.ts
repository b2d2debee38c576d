import assert from "node:assert/strict";
import { after, before, describe, it } from "node:test";
import { ApplicationFailure } from "@temporalio/common";
import { APICallError, type LanguageModel } from "ai";
import { MockLanguageModelV4 } from "ai/test";
import { createToolActivities } from "../../../activities/index.ts";
import { createScriptedModel } from "../../../src/llm/scripted/scripted-model.ts";
import {
  createHttpPageReader,
  createSearxngProvider,
  type PageReader,
} from "../../../src/search/index.ts";
import {
  deepResearchTool,
  executeTool,
  type DeepResearchResult,
  type ToolContext,
} from "../../../src/tools/index.ts";
import { sendJson, startSearxngServer } from "../search/searxng-test-server.ts";
import {
  articlePage,
  refusedUrl,
  startFakeWeb,
  type FakeWeb,
} from "../../support/fake-research-web.ts";

const durable = articlePage("Durable execution &amp; you", [
  "Durable execution lets a workflow survive crashes of the process running it.",
  "The history of every step is stored, so a new worker resumes where the last one stopped.",
]);

function noModel(): LanguageModel {
  throw new Error("no model call expected: nothing was read");
}

function context(
  web: FakeWeb,
  options: { reader?: PageReader; model?: () => LanguageModel; signal?: AbortSignal } = {},
): ToolContext {
  return {
    services: {
      searchProvider: createSearxngProvider({ baseUrl: web.url }),
      pageReader: options.reader ?? createHttpPageReader({ timeoutMs: 400 }),
    },
    sessionModel: options.model ?? (() => createScriptedModel("auto")),
    signal: options.signal,
    sessionId: "session-1",
    toolCallId: "call-1",
  };
}

async function research(input: unknown, ctx: ToolContext): Promise<DeepResearchResult> {
  return executeTool(deepResearchTool, input, ctx);
}

function textModel(text: string, prompts: string[] = []): MockLanguageModelV4 {
  return new MockLanguageModelV4({
    doGenerate: (options) => {
      prompts.push(JSON.stringify(options.prompt));
      return Promise.resolve({
        content: [{ type: "text", text }],
        finishReason: { unified: "stop", raw: "stop" },
        usage: {
          inputTokens: { total: 10, noCache: 10, cacheRead: 0, cacheWrite: 0 },
          outputTokens: { total: 5, text: 5, reasoning: 0 },
        },
        warnings: [],
      });
    },
  });
}

describe("deep_research against a local search provider and pages (real HTTP on 127.0.0.1)", () => {
  let web: FakeWeb;
  let refused: string;
  before(async () => {
    web = await startFakeWeb({
      "/durable": durable,
      "/broken": { status: 500, contentType: "text/html", body: "<p>secret stack trace</p>" },
      "/slow": "hang",
      "/paper.pdf": { status: 200, contentType: "application/pdf", body: "%PDF-1.7" },
      "/notes.txt": {
        status: 200,
        contentType: "text/plain",
        body: "Replay tests catch nondeterministic workflow changes before they ship.",
      },
      "/long": articlePage("Long", ["word ".repeat(5_000)]),
      "/footnotes": articlePage("Footnoted", [
        "Temporal was first released in 2020.[3] It is open source.[citation needed]",
      ]),
    });
    refused = await refusedUrl("/gone");
  });
  after(() => web.close());

  it("reports on the page it read with numbered citations, and lists the 500, the timeout and the refused connection with their reasons", async () => {
    web.setResults([
      { title: "Durable execution", url: `${web.url}/durable`, content: "snippet" },
      { title: "Broken", url: `${web.url}/broken`, content: "snippet" },
      { title: "Slow", url: `${web.url}/slow`, content: "snippet" },
      { title: "Gone", url: refused, content: "snippet" },
    ]);
    const result = await research({ query: "What is durable execution?" }, context(web));

    assert.equal(result.type, "deep_research_result");
    assert.deepEqual(
      result.sources.map((source) =>
        source.status === "read"
          ? [source.url, "read", source.citation]
          : [source.url, "unreachable", source.reason],
      ),
      [
        [`${web.url}/durable`, "read", 1],
        [`${web.url}/broken`, "unreachable", "the server answered HTTP 500 Internal Server Error"],
        [`${web.url}/slow`, "unreachable", "no answer within 400 ms"],
        [refused, "unreachable", "connection refused (ECONNREFUSED)"],
      ],
    );
    const { content } = result;
    assert.match(content, /^## 🔬 Deep research: What is durable execution\?/);
    // The scripted model's report quotes the page's text (not its menu or script) with [1].
    assert.match(content, /Durable execution lets a workflow survive crashes .*\[1\]/);
    assert.doesNotMatch(content, /Site menu|tracker|Copyright footer|secret stack trace/);
    assert.ok(content.includes(`### Sources\n\n1. [Durable execution](${web.url}/durable)`));
    assert.ok(content.includes("### Could not be read"));
    assert.ok(
      content.includes(`- ${web.url}/broken: the server answered HTTP 500 Internal Server Error`),
    );
    assert.ok(content.includes(`- ${web.url}/slow: no answer within 400 ms`));
    assert.ok(content.includes(`- ${refused}: connection refused (ECONNREFUSED)`));
    assert.match(content, /These 3 sources from the search could not be read, so nothing above/);
    assert.equal(web.searches.at(-1), "What is durable execution?");
  });

  it("says plainly that nothing could be read, and writes no report, when every source is unreachable", async () => {
    web.setResults([
      { title: "Broken", url: `${web.url}/broken`, content: "A snippet it must not use" },
      { title: "Gone", url: refused, content: "Another snippet" },
    ]);
    const result = await research({ query: "offline question" }, context(web, { model: noModel }));
    assert.match(result.content, /No report: none of the 2 sources the search found could be read/);
    assert.ok(result.content.includes(`- ${refused}: connection refused (ECONNREFUSED)`));
    assert.doesNotMatch(result.content, /snippet/i);
    assert.ok(result.sources.every((source) => source.status === "unreachable"));
  });

  it("says the search found nothing when it has no results", async () => {
    web.setResults([]);
    const result = await research({ query: "zzzz" }, context(web, { model: noModel }));
    assert.match(result.content, /found no results, so there is nothing to report/);
    assert.deepEqual(result.sources, []);
  });

  it("reads text files, refuses other content types by name, and marks a page cut at the size cap", async () => {
    web.setResults([
      { title: "Paper", url: `${web.url}/paper.pdf`, content: "" },
      { title: "Notes", url: `${web.url}/notes.txt`, content: "" },
      { title: "Long", url: `${web.url}/long`, content: "" },
    ]);
    const reader = createHttpPageReader({ timeoutMs: 2_000, maxBytes: 4_000 });
    const result = await research({ query: "replay" }, context(web, { reader }));
    assert.deepEqual(
      result.sources.map((source) => (source.status === "read" ? source.truncated : source.reason)),
      ["content type application/pdf: not a web page or text this tool can read", false, true],
    );
    assert.match(result.content, /Replay tests catch nondeterministic .*\[1\]/);
    assert.ok(
      result.content.includes(
        `2. [Long](${web.url}/long) (only its beginning was read: the page is long)`,
      ),
    );
  });

  it("gives the model at most the depth's share of each page, and flags citations of sources it did not read", async () => {
    web.setResults([{ title: "Long", url: `${web.url}/long`, content: "" }]);
    const prompts: string[] = [];
    const model = textModel("Words repeat [1]. Also a claim [4].", prompts);
    const result = await research(
      { query: "words", depth: 1, maxSources: 1 },
      context(web, { model: () => model }),
    );
    const prompt = prompts[0] ?? "";
    assert.match(prompt, /=== Source \[1\] ===/);
    const words = (prompt.match(/word /g) ?? []).length;
    assert.ok(words > 300 && words <= 400, `${words} words passed at depth 1 (2,000 characters)`);
    assert.match(result.content, /Words repeat \[1\]/);
    assert.match(result.content, /the report cites \[4\], which is not among the sources read/);
  });

  it("removes a page's own footnote marks, which the model would take for citations of other sources", async () => {
    web.setResults([{ title: "Footnoted", url: `${web.url}/footnotes`, content: "" }]);
    const prompts: string[] = [];
    const result = await research(
      { query: "temporal" },
      context(web, { model: () => textModel("Released in 2020 [1].", prompts) }),
    );
    const sourcesPart = (prompts[0] ?? "").slice((prompts[0] ?? "").indexOf("Research question"));
    assert.match(sourcesPart, /Temporal was first released in 2020\. It is open source\./);
    assert.doesNotMatch(sourcesPart, /\[3\]|citation needed/);
    assert.doesNotMatch(result.content, /not among the sources read/);
  });

  it("fails non-retryably with the provider's message when the model rejects the call", async () => {
    web.setResults([{ title: "Durable", url: `${web.url}/durable`, content: "" }]);
    const model = new MockLanguageModelV4({
      doGenerate: () =>
        Promise.reject(
          new APICallError({
            message: "model not found",
            url: "http://127.0.0.1/v1",
            requestBodyValues: {},
            statusCode: 404,
            isRetryable: false,
          }),
        ),
    });
    await assert.rejects(
      research({ query: "q" }, context(web, { model: () => model })),
      (error: unknown) => {
        assert.ok(error instanceof ApplicationFailure, String(error));
        assert.equal(error.type, "ResearchFailed");
        assert.equal(error.nonRetryable, true);
        assert.match(error.message, /deep_research: the model call failed: model not found/);
        return true;
      },
    );
  });

  it("stops reading when the activity is cancelled, with the cancellation's reason", async () => {
    web.setResults([{ title: "Slow", url: `${web.url}/slow`, content: "" }]);
    const controller = new AbortController();
    const reader = createHttpPageReader({ timeoutMs: 30_000 });
    const started = Date.now();
    setTimeout(() => {
      controller.abort(new Error("activity cancelled"));
    }, 100);
    await assert.rejects(
      research({ query: "q" }, context(web, { reader, signal: controller.signal })),
      /activity cancelled/,
    );
    assert.ok(Date.now() - started < 5_000);
  });

  it("refuses bad options with the field, the rule and the fields allowed", () => {
    const ctx = context(web);
    assert.throws(
      () => executeTool(deepResearchTool, { query: "q", maxSources: 11 }, ctx),
      /"maxSources" must be a whole number from 1 to 10/,
    );
    assert.throws(
      () => executeTool(deepResearchTool, { query: "q", depth: 4 }, ctx),
      /"depth" must be 1, 2 or 3/,
    );
    assert.throws(
      () => executeTool(deepResearchTool, { query: " " }, ctx),
      /"query" must be a non-empty string/,
    );
    assert.throws(
      () => executeTool(deepResearchTool, { query: "q", breadth: 5 }, ctx),
      /unknown field "breadth"; allowed fields are "query", "depth", "maxSources"/,
    );
  });
});

describe("deep_research when the search provider fails", () => {
  for (const [status, type, nonRetryable] of [
    [403, "SearchFailed", true],
    [502, "SearchUnavailable", false],
  ] as const) {
    it(`fails as ${type} (${nonRetryable ? "not retried" : "retried"}) on HTTP ${status}`, async (t) => {
      const server = await startSearxngServer(t, (_url, response) => {
        sendJson(response, status, { error: "no" });
      });
      const ctx: ToolContext = {
        services: {
          searchProvider: createSearxngProvider({ baseUrl: server.baseUrl }),
          pageReader: createHttpPageReader(),
        },
        sessionModel: noModel,
        signal: undefined,
        sessionId: "s",
        toolCallId: "c",
      };
      await assert.rejects(research({ query: "q" }, ctx), (error: unknown) => {
        assert.ok(error instanceof ApplicationFailure, String(error));
        assert.equal(error.type, type);
        assert.equal(error.nonRetryable, nonRetryable);
        assert.match(
          error.message,
          new RegExp(`^deep_research: SearXNG at .* answered HTTP ${status}`),
        );
        return true;
      });
    });
  }
});

describe("deep_research without a search provider", () => {
  it("is unavailable with the setting to change, and a call fails non-retryably saying so", async () => {
    const missing = deepResearchTool.unavailable?.({ pageReader: createHttpPageReader() });
    assert.match(
      missing?.reason ?? "",
      /^not configured: no search provider .*SEARCH_PROVIDER=searxng/,
    );
    const { runTool } = createToolActivities({ summarizeModel: noModel });
    await assert.rejects(
      runTool({
        tool: "deep_research",
        input: { query: "q" },
        modelId: "scripted:auto",
        sessionId: "s",
        toolCallId: "c",
      }),
      (error: unknown) => {
        assert.ok(error instanceof ApplicationFailure, String(error));
        assert.equal(error.type, "SearchNotConfigured");
        assert.equal(error.nonRetryable, true);
        assert.match(error.message, /deep_research cannot run on this server: not configured/);
        return true;
      },
    );
  });
});
