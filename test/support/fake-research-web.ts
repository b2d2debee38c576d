import { createServer, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import { sendJson } from "./fake-http.ts";

// A small web on 127.0.0.1 for `deep_research`: a SearXNG-compatible `/search` answering with
// the results a test sets, and the pages those results point at, each answering as told (a
// page, an error status, or no answer at all).

export type FakePage =
  { status: number; contentType: string; body: string; headers?: Record<string, string> } | "hang";

export interface FakeSearchResult {
  title: string;
  url: string;
  content: string;
}

export interface FakeWeb {
  /** `http://127.0.0.1:<port>`: SEARXNG_URL, and the origin of the pages. */
  url: string;
  /** The `q` of every search, in order. */
  searches: string[];
  /** The path of every page request, in order. */
  pageRequests: string[];
  setResults(results: FakeSearchResult[]): void;
  close(): Promise<void>;
}

export async function startFakeWeb(pages: Record<string, FakePage>): Promise<FakeWeb> {
  const searches: string[] = [];
  const pageRequests: string[] = [];
  const held: ServerResponse[] = [];
  let results: FakeSearchResult[] = [];
  const server = createServer((request, response) => {
    const url = new URL(request.url ?? "/", "http://127.0.0.1");
    if (url.pathname === "/search") {
      searches.push(url.searchParams.get("q") ?? "");
      sendJson(response, 200, { query: url.searchParams.get("q"), results });
      return;
    }
    pageRequests.push(url.pathname);
    const page = pages[url.pathname];
    if (page === "hang") {
      held.push(response);
      return;
    }
    if (page === undefined) {
      response.writeHead(404, { "content-type": "text/plain" });
      response.end("not found");
      return;
    }
    response.writeHead(page.status, { "content-type": page.contentType, ...page.headers });
    response.end(page.body);
  });
  await new Promise<void>((resolve) => {
    server.listen(0, "127.0.0.1", resolve);
  });
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    searches,
    pageRequests,
    setResults: (next) => {
      results = next;
    },
    close: async () => {
      for (const response of held.splice(0)) response.destroy();
      server.closeAllConnections();
      await new Promise<void>((resolve) => {
        server.close(() => {
          resolve();
        });
      });
    },
  };
}

/** A loopback URL nothing listens on: its port was free a moment ago, so connecting is refused. */
export async function refusedUrl(path = "/"): Promise<string> {
  const server = createServer();
  await new Promise<void>((resolve) => {
    server.listen(0, "127.0.0.1", resolve);
  });
  const { port } = server.address() as AddressInfo;
  await new Promise<void>((resolve) => {
    server.close(() => {
      resolve();
    });
  });
  return `http://127.0.0.1:${port}${path}`;
}

/** An HTML page with the furniture a real one has around its text. */
export function articlePage(title: string, paragraphs: readonly string[]): FakePage {
  return {
    status: 200,
    contentType: "text/html; charset=utf-8",
    body: [
      "<!doctype html><html><head>",
      `<title>${title}</title>`,
      "<style>body { color: red }</style>",
      '<script>window.tracker = "should never be read";</script>',
      "</head><body>",
      '<nav><a href="/">Home</a> | <a href="/about">Site menu</a></nav>',
      "<main>",
      `<h1>${title}</h1>`,
      ...paragraphs.map((paragraph) => `<p>${paragraph}</p>`),
      "</main>",
      "<footer>Copyright footer text</footer>",
      "</body></html>",
    ].join("\n"),
  };
}
