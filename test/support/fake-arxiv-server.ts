import { createServer, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";

// arXiv's export API (`GET /api/query?search_query=…&start=…&max_results=…&sortBy=…`) on
// 127.0.0.1, answering Atom XML as arXiv does: it matches the query's `field:word` terms and
// `cat:` against its papers, pages and sorts them, and answers a query it cannot read with its
// error entry. A test can also make the next answers an HTTP error, broken XML or silence.

export interface FakePaper {
  id: string;
  title: string;
  authors: string[];
  summary: string;
  published: string;
  updated?: string;
  categories: string[];
}

export type FakeArxivReply = { status: number; body: string } | "hang";

export interface FakeArxiv {
  /** The query endpoint: what ARXIV_API_URL is set to. */
  apiUrl: string;
  /** Every request's query parameters, in order. */
  requests: URLSearchParams[];
  /** Answers the next requests with these instead of searching. */
  enqueue(...replies: FakeArxivReply[]): void;
  close(): Promise<void>;
}

export const fakePapers: FakePaper[] = [
  {
    id: "2401.00001v2",
    title: "Durable Execution for Long-Running Agents",
    authors: ["Ada Lovelace", "Alan Turing", "Grace Hopper", "Edsger Dijkstra"],
    summary:
      "We show that durable   execution keeps\n agent sessions alive across crashes &amp; restarts.",
    published: "2024-01-02T10:00:00Z",
    updated: "2024-02-01T10:00:00Z",
    categories: ["cs.DC", "cs.AI"],
  },
  {
    id: "2312.05555v1",
    title: "Replay Testing of Agent Workflows",
    authors: ["Barbara Liskov"],
    summary:
      "Recorded histories replayed against new code catch nondeterminism in agent workflows.",
    published: "2023-12-09T08:00:00Z",
    categories: ["cs.SE"],
  },
  {
    id: "2402.07777v1",
    title: "Quantum Annealing for Scheduling",
    authors: ["Richard Feynman"],
    summary: "An annealing approach to scheduling problems.",
    published: "2024-02-14T12:00:00Z",
    categories: ["quant-ph"],
  },
];

function escapeXml(text: string): string {
  return text.replace(
    /[<>&"]/g,
    (c) => ({ "<": "&lt;", ">": "&gt;", "&": "&amp;", '"': "&quot;" })[c] ?? c,
  );
}

function entryXml(origin: string, paper: FakePaper): string {
  const abs = `${origin}/abs/${paper.id}`;
  return [
    "  <entry>",
    `    <id>${abs}</id>`,
    `    <updated>${paper.updated ?? paper.published}</updated>`,
    `    <published>${paper.published}</published>`,
    `    <title>${escapeXml(paper.title)}</title>`,
    // The summary arrives already escaped in the fixture, as text with an entity in it.
    `    <summary>${paper.summary}</summary>`,
    ...paper.authors.map(
      (name) => `    <author>\n      <name>${escapeXml(name)}</name>\n    </author>`,
    ),
    `    <link href="${abs}" rel="alternate" type="text/html"/>`,
    `    <link title="pdf" href="${origin}/pdf/${paper.id}" rel="related" type="application/pdf"/>`,
    `    <arxiv:primary_category xmlns:arxiv="http://arxiv.org/schemas/atom" term="${paper.categories[0] ?? ""}" scheme="http://arxiv.org/schemas/atom"/>`,
    ...paper.categories.map(
      (term) => `    <category term="${term}" scheme="http://arxiv.org/schemas/atom"/>`,
    ),
    "  </entry>",
  ].join("\n");
}

export function atomFeed(
  origin: string,
  papers: readonly FakePaper[],
  total: number,
  start: number,
): string {
  return [
    '<?xml version="1.0" encoding="UTF-8"?>',
    '<feed xmlns="http://www.w3.org/2005/Atom">',
    '  <title type="html">ArXiv Query</title>',
    `  <opensearch:totalResults xmlns:opensearch="http://a9.com/-/spec/opensearch/1.1/">${total}</opensearch:totalResults>`,
    `  <opensearch:startIndex xmlns:opensearch="http://a9.com/-/spec/opensearch/1.1/">${start}</opensearch:startIndex>`,
    ...papers.map((paper) => entryXml(origin, paper)),
    "</feed>",
    "",
  ].join("\n");
}

/** arXiv's answer to a query it cannot parse: HTTP 200 with a single error entry. */
export function errorFeed(origin: string, message: string): string {
  return [
    '<?xml version="1.0" encoding="UTF-8"?>',
    '<feed xmlns="http://www.w3.org/2005/Atom">',
    '  <opensearch:totalResults xmlns:opensearch="http://a9.com/-/spec/opensearch/1.1/">1</opensearch:totalResults>',
    "  <entry>",
    `    <id>${origin}/api/errors#incorrect_id_format</id>`,
    "    <title>Error</title>",
    `    <summary>${escapeXml(message)}</summary>`,
    "  </entry>",
    "</feed>",
    "",
  ].join("\n");
}

function matches(paper: FakePaper, searchQuery: string): boolean {
  const fields: Record<string, string> = {
    ti: paper.title,
    abs: paper.summary,
    au: paper.authors.join(" "),
    all: `${paper.title} ${paper.summary} ${paper.authors.join(" ")}`,
  };
  const terms = [...searchQuery.matchAll(/\b(all|ti|abs|au|cat):("[^"]*"|[^\s()]+)/g)];
  return terms.every(([, field = "all", raw = ""]) => {
    const value = raw.replace(/"/g, "").toLowerCase();
    if (field === "cat")
      return paper.categories.some((category) => category.toLowerCase() === value);
    return (fields[field] ?? "").toLowerCase().includes(value);
  });
}

export async function startFakeArxiv(
  papers: readonly FakePaper[] = fakePapers,
): Promise<FakeArxiv> {
  const requests: URLSearchParams[] = [];
  const queue: FakeArxivReply[] = [];
  const held: ServerResponse[] = [];
  let origin = "";
  const server = createServer((request, response) => {
    const url = new URL(request.url ?? "/", origin);
    if (url.pathname !== "/api/query") {
      response.writeHead(404).end();
      return;
    }
    requests.push(url.searchParams);
    const reply = queue.shift();
    if (reply === "hang") {
      held.push(response);
      return;
    }
    if (reply !== undefined) {
      response.writeHead(reply.status, { "content-type": "application/atom+xml; charset=utf-8" });
      response.end(reply.body);
      return;
    }
    const searchQuery = url.searchParams.get("search_query") ?? "";
    if (!/\b(all|ti|abs|au|cat):/.test(searchQuery)) {
      response.writeHead(200, { "content-type": "application/atom+xml; charset=utf-8" });
      response.end(errorFeed(origin, `malformed search query: ${searchQuery}`));
      return;
    }
    const start = Number(url.searchParams.get("start") ?? "0");
    const max = Number(url.searchParams.get("max_results") ?? "10");
    const found = papers.filter((paper) => matches(paper, searchQuery));
    if (url.searchParams.get("sortBy") === "submittedDate") {
      found.sort((a, b) => b.published.localeCompare(a.published));
    }
    response.writeHead(200, { "content-type": "application/atom+xml; charset=utf-8" });
    response.end(atomFeed(origin, found.slice(start, start + max), found.length, start));
  });
  await new Promise<void>((resolve) => {
    server.listen(0, "127.0.0.1", resolve);
  });
  origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return {
    apiUrl: `${origin}/api/query`,
    requests,
    enqueue: (...replies) => {
      queue.push(...replies);
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
