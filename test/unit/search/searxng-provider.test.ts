import assert from "node:assert/strict";
import { createServer } from "node:http";
import type { AddressInfo } from "node:net";
import { describe, it } from "node:test";
import { createSearxngProvider, SearchProviderError } from "../../../src/search/index.ts";
import { searxngResults, sendJson, startSearxngServer } from "./searxng-test-server.ts";

function assertProviderError(expected: {
  retryable: boolean;
  status?: number;
  message: RegExp;
}): (error: unknown) => true {
  return (error) => {
    assert.ok(
      error instanceof SearchProviderError,
      `expected SearchProviderError, got ${String(error)}`,
    );
    assert.equal(error.provider, "searxng");
    assert.equal(error.retryable, expected.retryable);
    assert.equal(error.status, expected.status);
    assert.match(error.message, expected.message);
    return true;
  };
}

describe("SearXNG provider", () => {
  it("asks the JSON API and maps title, url and content to title, url and snippet", async (t) => {
    const server = await startSearxngServer(t, (_url, response) => {
      sendJson(response, 200, searxngResults(2));
    });
    const provider = createSearxngProvider({ baseUrl: server.baseUrl });

    const results = await provider.search("temporal durable execution", 5);

    assert.deepEqual(results, [
      { title: "Result 1", url: "https://example.org/1", snippet: "Snippet 1" },
      { title: "Result 2", url: "https://example.org/2", snippet: "Snippet 2" },
    ]);
    assert.equal(server.requests.length, 1);
    const [request] = server.requests;
    assert.ok(request);
    assert.equal(request.pathname, "/search");
    assert.equal(request.searchParams.get("q"), "temporal durable execution");
    assert.equal(request.searchParams.get("format"), "json");
  });

  it("returns at most `limit` results", async (t) => {
    const server = await startSearxngServer(t, (_url, response) => {
      sendJson(response, 200, searxngResults(12));
    });
    const results = await createSearxngProvider({ baseUrl: server.baseUrl }).search("x", 3);
    assert.deepEqual(
      results.map((result) => result.url),
      ["https://example.org/1", "https://example.org/2", "https://example.org/3"],
    );
  });

  it("keeps a base path and skips entries without a url", async (t) => {
    const server = await startSearxngServer(t, (_url, response) => {
      sendJson(response, 200, {
        results: [
          { title: "no url" },
          { url: "https://example.org/a", title: "  Spaced\n title ", content: null },
          { url: "https://example.org/b" },
        ],
      });
    });
    const provider = createSearxngProvider({ baseUrl: `${server.baseUrl}/searxng/` });

    const results = await provider.search("x", 8);

    assert.equal(server.requests[0]?.pathname, "/searxng/search");
    assert.deepEqual(results, [
      { title: "Spaced title", url: "https://example.org/a", snippet: "" },
      { title: "https://example.org/b", url: "https://example.org/b", snippet: "" },
    ]);
  });

  it("classifies HTTP 500 as retryable", async (t) => {
    const server = await startSearxngServer(t, (_url, response) => {
      sendJson(response, 500, { error: "engine crashed" });
    });
    await assert.rejects(
      createSearxngProvider({ baseUrl: server.baseUrl }).search("x", 5),
      assertProviderError({ retryable: true, status: 500, message: /HTTP 500.*engine crashed/ }),
    );
  });

  it("classifies HTTP 400 as permanent", async (t) => {
    const server = await startSearxngServer(t, (_url, response) => {
      sendJson(response, 400, { error: "bad query" });
    });
    await assert.rejects(
      createSearxngProvider({ baseUrl: server.baseUrl }).search("x", 5),
      assertProviderError({ retryable: false, status: 400, message: /HTTP 400/ }),
    );
  });

  it("explains how to enable the JSON API on HTTP 403", async (t) => {
    const server = await startSearxngServer(t, (_url, response) => {
      response.writeHead(403, { "content-type": "text/html" });
      response.end("<h1>Forbidden</h1>");
    });
    await assert.rejects(
      createSearxngProvider({ baseUrl: server.baseUrl }).search("x", 5),
      assertProviderError({ retryable: false, status: 403, message: /search\.formats/ }),
    );
  });

  it("retries rate limiting (HTTP 429) like a server error", async (t) => {
    const server = await startSearxngServer(t, (_url, response) => {
      sendJson(response, 429, {});
    });
    await assert.rejects(
      createSearxngProvider({ baseUrl: server.baseUrl }).search("x", 5),
      assertProviderError({ retryable: true, status: 429, message: /HTTP 429/ }),
    );
  });

  it("treats an answer that is not SearXNG JSON as permanent", async (t) => {
    const server = await startSearxngServer(t, (_url, response) => {
      response.writeHead(200, { "content-type": "text/html" });
      response.end("<html>a different app</html>");
    });
    await assert.rejects(
      createSearxngProvider({ baseUrl: server.baseUrl }).search("x", 5),
      assertProviderError({ retryable: false, message: /did not answer with JSON/ }),
    );
  });

  it("times out a slow server as a retryable error", async (t) => {
    const server = await startSearxngServer(t, () => {
      // Never answers.
    });
    await assert.rejects(
      createSearxngProvider({ baseUrl: server.baseUrl, timeoutMs: 100 }).search("x", 5),
      assertProviderError({ retryable: true, message: /did not answer within 100 ms/ }),
    );
  });

  it("times out a server that stalls mid-body", async (t) => {
    const server = await startSearxngServer(t, (_url, response) => {
      response.writeHead(200, { "content-type": "application/json" });
      response.write('{"results": [');
    });
    await assert.rejects(
      createSearxngProvider({ baseUrl: server.baseUrl, timeoutMs: 100 }).search("x", 5),
      assertProviderError({ retryable: true, message: /did not answer within 100 ms/ }),
    );
  });

  it("classifies a refused connection as retryable", async () => {
    const closed = createServer();
    await new Promise<void>((resolve) => {
      closed.listen(0, "127.0.0.1", resolve);
    });
    const { port } = closed.address() as AddressInfo;
    await new Promise<void>((resolve) =>
      closed.close(() => {
        resolve();
      }),
    );

    await assert.rejects(
      createSearxngProvider({ baseUrl: `http://127.0.0.1:${port}` }).search("x", 5),
      assertProviderError({ retryable: true, message: /Could not reach SearXNG.*ECONNREFUSED/ }),
    );
  });

  it("rethrows the caller's abort reason rather than a provider error", async (t) => {
    const server = await startSearxngServer(t, () => {
      // Never answers.
    });
    const controller = new AbortController();
    const reason = new Error("activity cancelled");
    const search = createSearxngProvider({ baseUrl: server.baseUrl }).search(
      "x",
      5,
      controller.signal,
    );
    setTimeout(() => {
      controller.abort(reason);
    }, 20);
    await assert.rejects(search, (error) => error === reason);
  });
});
