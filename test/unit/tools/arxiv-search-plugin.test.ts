import assert from "node:assert/strict";
import { fileURLToPath } from "node:url";
import { after, before, describe, it } from "node:test";
import { ApplicationFailure } from "@temporalio/common";
import { createArxivSearchTool } from "../../../plugins/arxiv-search.ts";
import { loadToolPlugins } from "../../../src/tool-plugins/index.ts";
import { startFakeArxiv, type FakeArxiv } from "../../support/fake-arxiv-server.ts";

// The shipped arxiv_search plug-in (plugins/arxiv-search.ts) against a local fake of arXiv's
// export API: real HTTP on 127.0.0.1, real Atom XML.

const pluginsDir = fileURLToPath(new URL("../../../plugins/", import.meta.url));

function expectFailure(expected: { nonRetryable: boolean; message: RegExp }) {
  return (error: unknown): true => {
    assert.ok(error instanceof ApplicationFailure, String(error));
    assert.equal(error.type, "ArxivSearchFailed");
    assert.equal(error.nonRetryable, expected.nonRetryable);
    assert.match(error.message, expected.message);
    return true;
  };
}

describe("arxiv_search plug-in against a local fake arXiv API", () => {
  let arxiv: FakeArxiv;
  let tool: ReturnType<typeof createArxivSearchTool>;
  before(async () => {
    arxiv = await startFakeArxiv();
    tool = createArxivSearchTool({ apiUrl: arxiv.apiUrl, timeoutMs: 500, minIntervalMs: 0 });
  });
  after(() => arxiv.close());

  const run = (input: unknown, signal?: AbortSignal) =>
    tool.execute(tool.inputSchema.parse(input), { signal });

  it("asks the API for the query's words, page and order, and returns each paper's fields", async () => {
    const result = await run({ query: "durable execution" });
    const sent = arxiv.requests.at(-1);
    assert.deepEqual(Object.fromEntries(sent ?? []), {
      search_query: "all:durable AND all:execution",
      start: "0",
      max_results: "10",
      sortBy: "relevance",
      sortOrder: "descending",
    });
    assert.equal(result.type, "arxiv_search_result");
    assert.equal(result.total, 1);
    assert.deepEqual(result.papers, [
      {
        id: "2401.00001v2",
        title: "Durable Execution for Long-Running Agents",
        authors: ["Ada Lovelace", "Alan Turing", "Grace Hopper", "Edsger Dijkstra"],
        published: "2024-01-02T10:00:00Z",
        updated: "2024-02-01T10:00:00Z",
        summary:
          "We show that durable execution keeps agent sessions alive across crashes & restarts.",
        categories: ["cs.DC", "cs.AI"],
        absUrl: `${arxiv.apiUrl.replace("/api/query", "")}/abs/2401.00001v2`,
        pdfUrl: `${arxiv.apiUrl.replace("/api/query", "")}/pdf/2401.00001v2`,
      },
    ]);
    assert.match(result.content, /^## arXiv: durable execution\n\nPapers 1–1 of 1, by relevance:/);
    assert.match(
      result.content,
      /1\. \*\*Durable Execution for Long-Running Agents\*\* \(2401\.00001v2, 2024-01-02\), Ada Lovelace, Alan Turing, Grace Hopper et al\./,
    );
  });

  it("searches one field within a category, pages with start and sorts by submission date", async () => {
    const result = await run({
      query: "agent",
      searchIn: "title",
      category: "cs.SE",
      start: 0,
      maxResults: 5,
      sortBy: "submitted",
    });
    const sent = arxiv.requests.at(-1) ?? new URLSearchParams();
    assert.equal(sent.get("search_query"), "(ti:agent) AND cat:cs.SE");
    assert.equal(sent.get("sortBy"), "submittedDate");
    assert.equal(sent.get("max_results"), "5");
    assert.deepEqual(
      result.papers.map((paper) => paper.id),
      ["2312.05555v1"],
    );
  });

  it("drops the words a request wraps around its subject, since every word is required", async () => {
    const result = await run({ query: "Find recent papers on durable execution, please" });
    assert.equal(arxiv.requests.at(-1)?.get("search_query"), "all:durable AND all:execution");
    assert.equal(result.papers.length, 1);
  });

  it("keeps a query already written in arXiv's syntax", async () => {
    await run({ query: 'au:Feynman AND ti:"annealing"' });
    assert.equal(arxiv.requests.at(-1)?.get("search_query"), 'au:Feynman AND ti:"annealing"');
  });

  it("says so when nothing matches", async () => {
    const result = await run({ query: "zebrafish", start: 20 });
    assert.deepEqual(result.papers, []);
    assert.equal(result.content, "## arXiv: zebrafish\n\nNo papers found after the first 20.");
  });

  it("fails non-retryably with arXiv's message when arXiv rejects the query", async () => {
    arxiv.enqueue({
      status: 200,
      body: `<?xml version="1.0"?><feed xmlns="http://www.w3.org/2005/Atom"><entry><id>${arxiv.apiUrl.replace("/api/query", "")}/api/errors#bad</id><title>Error</title><summary>incorrect id format for 1234</summary></entry></feed>`,
    });
    await assert.rejects(
      run({ query: "x" }),
      expectFailure({
        nonRetryable: true,
        message:
          /arxiv_search: arXiv rejected the query: incorrect id format for 1234; rephrase it/,
      }),
    );
  });

  it("fails retryably on 503 (arXiv shedding load) and non-retryably on 400, naming the endpoint and status", async () => {
    arxiv.enqueue({ status: 503, body: "busy" }, { status: 400, body: "bad" });
    await assert.rejects(
      run({ query: "x" }),
      expectFailure({
        nonRetryable: false,
        message: new RegExp(
          `the arXiv API at ${arxiv.apiUrl} answered HTTP 503 Service Unavailable`,
        ),
      }),
    );
    await assert.rejects(
      run({ query: "x" }),
      expectFailure({ nonRetryable: true, message: /answered HTTP 400 Bad Request/ }),
    );
  });

  it("fails non-retryably on malformed Atom XML, saying what is broken", async () => {
    arxiv.enqueue(
      { status: 200, body: "<html>not a feed</html>" },
      {
        status: 200,
        body: '<feed xmlns="http://www.w3.org/2005/Atom"><entry><id>x</id><title>t</title></feed>',
      },
    );
    await assert.rejects(
      run({ query: "x" }),
      expectFailure({
        nonRetryable: true,
        message: /sent malformed Atom XML: the answer is not a complete Atom feed/,
      }),
    );
    await assert.rejects(
      run({ query: "x" }),
      expectFailure({
        nonRetryable: true,
        message: /an <entry> is not closed \(1 opened, 0 closed\)/,
      }),
    );
  });

  it("fails retryably when the API does not answer in time, and stops at once when cancelled", async () => {
    arxiv.enqueue("hang");
    await assert.rejects(
      run({ query: "x" }),
      expectFailure({
        nonRetryable: false,
        message: /could not reach the arXiv API at .*: no answer within 500 ms/,
      }),
    );
    arxiv.enqueue("hang");
    const controller = new AbortController();
    const slowTool = createArxivSearchTool({
      apiUrl: arxiv.apiUrl,
      timeoutMs: 30_000,
      minIntervalMs: 0,
    });
    setTimeout(() => {
      controller.abort(new Error("activity cancelled"));
    }, 100);
    const started = Date.now();
    await assert.rejects(
      slowTool.execute(slowTool.inputSchema.parse({ query: "x" }), { signal: controller.signal }),
      /activity cancelled/,
    );
    assert.ok(Date.now() - started < 5_000);
  });

  it("spaces its requests by the interval arXiv asks for", async () => {
    const polite = createArxivSearchTool({ apiUrl: arxiv.apiUrl, minIntervalMs: 300 });
    const started = Date.now();
    await polite.execute(polite.inputSchema.parse({ query: "replay" }), {});
    await polite.execute(polite.inputSchema.parse({ query: "replay" }), {});
    assert.ok(Date.now() - started >= 290, `${Date.now() - started} ms for two requests`);
  });

  it("refuses bad input with the field and the rule", () => {
    assert.throws(() => tool.inputSchema.parse({ query: "x", maxResults: 51 }), /maxResults/);
    assert.throws(
      () => tool.inputSchema.parse({ query: "x", category: "not a category" }),
      /must be an arXiv category such as cs\.AI/,
    );
    assert.throws(() => tool.inputSchema.parse({ query: "x", limit: 3 }), /limit/);
  });
});

describe("arxiv_search plug-in: installing it", () => {
  it("is unavailable without ARXIV_API_URL, saying which variable to set", () => {
    const tool = createArxivSearchTool({ apiUrl: undefined });
    const missing = tool.unavailable();
    assert.match(
      missing?.reason ?? "",
      /^not configured: set ARXIV_API_URL in the worker's environment/,
    );
  });

  it("loads from the shipped plugins folder with AGENTDOCK_TOOL_DIRS's loader, beside word_count", async () => {
    const { modules } = await loadToolPlugins(
      { dirs: [pluginsDir], modules: [] },
      { cwd: pluginsDir },
    );
    assert.deepEqual(
      modules.map((module) => [module.name, module.category, module.runsLong === true]),
      [
        ["arxiv_search", "research", true],
        ["word_count", "analysis", false],
      ],
    );
  });
});
