import { createServer } from "node:http";
import type { IncomingMessage, ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import type { TestContext } from "node:test";

export interface SearxngTestServer {
  baseUrl: string;
  /** Every request the server received, in order. */
  requests: URL[];
}

export type SearxngHandler = (url: URL, response: ServerResponse, request: IncomingMessage) => void;

/**
 * A local HTTP server speaking SearXNG's JSON API, on 127.0.0.1 and a free
 * port, closed (with any hanging connections) when the test ends.
 */
export async function startSearxngServer(
  t: TestContext,
  handler: SearxngHandler,
): Promise<SearxngTestServer> {
  const requests: URL[] = [];
  const server = createServer((request, response) => {
    const url = new URL(request.url ?? "/", "http://127.0.0.1");
    requests.push(url);
    handler(url, response, request);
  });
  await new Promise<void>((resolve) => {
    server.listen(0, "127.0.0.1", resolve);
  });
  t.after(async () => {
    server.closeAllConnections();
    await new Promise<void>((resolve) =>
      server.close(() => {
        resolve();
      }),
    );
  });
  const { port } = server.address() as AddressInfo;
  return { baseUrl: `http://127.0.0.1:${port}`, requests };
}

export function sendJson(response: ServerResponse, status: number, body: unknown): void {
  response.writeHead(status, { "content-type": "application/json" });
  response.end(JSON.stringify(body));
}

/** A SearXNG answer with `count` results, the way the instance shapes them. */
export function searxngResults(count: number): { query: string; results: unknown[] } {
  return {
    query: "q",
    results: Array.from({ length: count }, (_, index) => ({
      url: `https://example.org/${index + 1}`,
      title: `Result ${index + 1}`,
      content: `Snippet ${index + 1}`,
      engine: "duckduckgo",
      engines: ["duckduckgo"],
      score: 1,
      category: "general",
    })),
  };
}
