// AgentDock's `arxiv_search`, as a plug-in: searches arXiv's export API (its Atom query API)
// and returns the papers as JSON plus Markdown `content`. Same input names as AgentDock's tool,
// so its templates and prompts work unchanged. Install: AGENTDOCK_TOOL_DIRS=<this folder> and
// ARXIV_API_URL=<the API's query endpoint> in the worker's environment.
import { ApplicationFailure } from "@temporalio/common";
import { z } from "zod";

export interface ArxivPaper {
  /** `2301.01234v2`: the id without its URL. */
  id: string;
  title: string;
  authors: string[];
  published: string;
  updated: string;
  summary: string;
  categories: string[];
  /** The abstract page. */
  absUrl: string;
  pdfUrl: string | undefined;
}

export interface ArxivFeed {
  total: number;
  papers: ArxivPaper[];
}

export interface ArxivSearchOptions {
  /** The API's query endpoint; undefined leaves the tool unavailable, saying which variable to set. */
  apiUrl: string | undefined;
  timeoutMs?: number;
  /** arXiv asks for at most one request every 3 seconds; calls wait their turn. */
  minIntervalMs?: number;
}

/** The part of the tool context this plug-in uses: the activity's cancellation. */
interface CallContext {
  signal?: AbortSignal | undefined;
}

const sortKeys = {
  relevance: "relevance",
  lastUpdated: "lastUpdatedDate",
  submitted: "submittedDate",
};
const fieldPrefixes = { all: "all", title: "ti", abstract: "abs", author: "au" };

export const arxivSearchInput = z.strictObject({
  query: z
    .string()
    .trim()
    .min(1)
    .describe("What to look for: keywords, a title, or an author's name."),
  maxResults: z
    .number()
    .int()
    .min(1)
    .max(50)
    .default(10)
    .describe("How many papers, 1 to 50; 10 when omitted."),
  start: z
    .number()
    .int()
    .min(0)
    .max(10_000)
    .default(0)
    .describe("How many results to skip, to page through more; 0 when omitted."),
  sortBy: z
    .enum(["relevance", "lastUpdated", "submitted"])
    .default("relevance")
    .describe("Order: relevance (default), lastUpdated or submitted, newest first."),
  category: z
    .string()
    .regex(/^[a-z-]+(\.[A-Za-z-]+)?$/, "must be an arXiv category such as cs.AI or hep-th")
    .optional()
    .describe("An arXiv category to search within, such as cs.AI or physics.optics."),
  searchIn: z
    .enum(["all", "title", "abstract", "author"])
    .default("all")
    .describe("Where to look: all fields (default), title, abstract or author."),
});

export type ArxivSearchInput = z.infer<typeof arxivSearchInput>;

// Words a request wraps around its subject ("find recent papers on …"): every word is required,
// so these would match nothing. Kept when the query has nothing else.
const requestWords = new Set(
  "a an and about any arxiv find for from in is latest me new of on papers paper please recent research search show some study studies the to what with".split(
    " ",
  ),
);

/** The API's `search_query`: the query's words in the chosen field, all required, and the category. */
export function arxivSearchQuery({ query, searchIn, category }: ArxivSearchInput): string {
  // A query already written in arXiv's syntax (`ti:"graph neural" AND au:smith`) is kept as it is.
  const advanced = /\b(all|ti|au|abs|co|jr|cat|rn|id):|\b(AND|OR|ANDNOT)\b/.test(query);
  const all = query
    .replace(/["():?!,;]/g, " ")
    .split(/\s+/)
    .filter((word) => word !== "");
  const subject = all.filter((word) => !requestWords.has(word.toLowerCase()));
  const words = subject.length === 0 ? all : subject;
  const terms = advanced
    ? query
    : words.map((word) => `${fieldPrefixes[searchIn]}:${word}`).join(" AND ");
  return category === undefined ? terms : `(${terms}) AND cat:${category}`;
}

function decodeXml(text: string): string {
  return text
    .replace(/<!\[CDATA\[([\s\S]*?)\]\]>/g, "$1")
    .replace(/&(#x[0-9a-f]+|#\d+|lt|gt|amp|quot|apos);/gi, (entity, body: string) => {
      const named: Record<string, string> = { lt: "<", gt: ">", amp: "&", quot: '"', apos: "'" };
      if (!body.startsWith("#")) return named[body.toLowerCase()] ?? entity;
      const code =
        body[1] === "x" || body[1] === "X"
          ? parseInt(body.slice(2), 16)
          : parseInt(body.slice(1), 10);
      return Number.isInteger(code) && code > 0 && code <= 0x10ffff
        ? String.fromCodePoint(code)
        : entity;
    });
}

function oneLine(text: string): string {
  return decodeXml(text).replace(/\s+/g, " ").trim();
}

function elementText(xml: string, name: string): string | undefined {
  const match = new RegExp(`<${name}(?:\\s[^>]*)?>([\\s\\S]*?)</${name}>`).exec(xml);
  return match?.[1] === undefined ? undefined : oneLine(match[1]);
}

function attribute(tag: string, name: string): string | undefined {
  const value = new RegExp(`\\s${name}\\s*=\\s*("([^"]*)"|'([^']*)')`).exec(tag);
  const raw = value?.[2] ?? value?.[3];
  return raw === undefined ? undefined : decodeXml(raw);
}

class MalformedFeed extends Error {}

/** arXiv answered with its error entry: the query itself is wrong. */
class ArxivQueryError extends Error {}

/**
 * The papers of an Atom feed from the API. Regular expressions suffice: the feed is flat and
 * machine-written, and a broken one is reported rather than half-read.
 *
 * @throws {MalformedFeed} naming what is missing.
 */
export function parseArxivFeed(xml: string): ArxivFeed {
  if (!/<feed[\s>]/.test(xml) || !/<\/feed>\s*$/.test(xml)) {
    throw new MalformedFeed("the answer is not a complete Atom feed (no <feed>…</feed>)");
  }
  const opened = (xml.match(/<entry[\s>]/g) ?? []).length;
  const entries = [...xml.matchAll(/<entry[\s>]([\s\S]*?)<\/entry>/g)].map(
    (match) => match[1] ?? "",
  );
  if (entries.length !== opened)
    throw new MalformedFeed(
      `an <entry> is not closed (${opened} opened, ${entries.length} closed)`,
    );
  const totalText = elementText(xml, "opensearch:totalResults");
  const papers = entries.map((entry, index): ArxivPaper => {
    const idUrl = elementText(entry, "id");
    const title = elementText(entry, "title");
    if (idUrl === undefined || title === undefined)
      throw new MalformedFeed(`entry ${index + 1} has no <id> or <title>`);
    const errorEntry = /\/api\/errors/.test(idUrl) ? elementText(entry, "summary") : undefined;
    if (errorEntry !== undefined) throw new ArxivQueryError(errorEntry);
    const links = [...entry.matchAll(/<link\b[^>]*>/g)].map((match) => match[0]);
    const pdf = links.find((link) => attribute(link, "title") === "pdf");
    return {
      id: idUrl.replace(/^.*\/abs\//, ""),
      title,
      authors: [
        ...entry.matchAll(/<author>[\s\S]*?<name>([\s\S]*?)<\/name>[\s\S]*?<\/author>/g),
      ].map((match) => oneLine(match[1] ?? "")),
      published: elementText(entry, "published") ?? "",
      updated: elementText(entry, "updated") ?? "",
      summary: elementText(entry, "summary") ?? "",
      categories: [...entry.matchAll(/<category\b[^>]*>/g)].flatMap(
        (match) => attribute(match[0], "term") ?? [],
      ),
      absUrl: idUrl,
      pdfUrl: pdf === undefined ? undefined : attribute(pdf, "href"),
    };
  });
  const total = totalText === undefined ? papers.length : Number(totalText);
  return { total: Number.isFinite(total) ? total : papers.length, papers };
}

export function arxivMarkdown(input: ArxivSearchInput, feed: ArxivFeed): string {
  const heading = `## arXiv: ${input.query}`;
  if (feed.papers.length === 0)
    return `${heading}\n\nNo papers found${input.start > 0 ? ` after the first ${input.start}` : ""}.`;
  const first = input.start + 1;
  const range = `Papers ${first}–${input.start + feed.papers.length} of ${feed.total}, by ${input.sortBy}:`;
  const papers = feed.papers.map((paper, index) => {
    const authors =
      paper.authors.length > 3
        ? `${paper.authors.slice(0, 3).join(", ")} et al.`
        : paper.authors.join(", ");
    const abstract =
      paper.summary.length > 300 ? `${paper.summary.slice(0, 299).trimEnd()}…` : paper.summary;
    const pdf = paper.pdfUrl === undefined ? "" : ` · [PDF](${paper.pdfUrl})`;
    return `${first + index}. **${paper.title}** (${paper.id}, ${paper.published.slice(0, 10)}), ${authors}\n   ${abstract}\n   [abstract](${paper.absUrl})${pdf}`;
  });
  return [heading, range, papers.join("\n")].join("\n\n");
}

function failure(message: string, nonRetryable: boolean, cause?: unknown): ApplicationFailure {
  return ApplicationFailure.create({
    type: "ArxivSearchFailed",
    message: `arxiv_search: ${message}`,
    nonRetryable,
    ...(cause instanceof Error ? { cause } : {}),
  });
}

/** A tool searching the API at `options.apiUrl`; the default export reads it from ARXIV_API_URL. */
export function createArxivSearchTool(options: ArxivSearchOptions) {
  const timeoutMs = options.timeoutMs ?? 15_000;
  const minIntervalMs = options.minIntervalMs ?? 3_000;
  let nextSlot = 0;

  async function waitTurn(signal: AbortSignal | undefined): Promise<void> {
    const now = Date.now();
    const wait = Math.max(0, nextSlot - now);
    nextSlot = Math.max(now, nextSlot) + minIntervalMs;
    if (wait === 0) return;
    await new Promise<void>((resolve, reject) => {
      const timer = setTimeout(resolve, wait);
      signal?.addEventListener(
        "abort",
        () => {
          clearTimeout(timer);
          reject(signal.reason as Error);
        },
        { once: true },
      );
    });
  }

  async function search(input: ArxivSearchInput, { signal }: CallContext = {}) {
    const { apiUrl } = options;
    if (apiUrl === undefined) throw failure(unconfigured, true);
    const url = new URL(apiUrl);
    url.searchParams.set("search_query", arxivSearchQuery(input));
    url.searchParams.set("start", String(input.start));
    url.searchParams.set("max_results", String(input.maxResults));
    url.searchParams.set("sortBy", sortKeys[input.sortBy]);
    url.searchParams.set("sortOrder", "descending");
    const where = `${url.origin}${url.pathname}`;
    await waitTurn(signal);
    const timeout = AbortSignal.timeout(timeoutMs);
    const combined = signal === undefined ? timeout : AbortSignal.any([signal, timeout]);
    let xml: string;
    try {
      const response = await fetch(url, {
        signal: combined,
        headers: { accept: "application/atom+xml" },
      });
      xml = await response.text();
      if (!response.ok) {
        // 429 and 5xx pass (arXiv sheds load with 503); another 4xx means the request is wrong.
        const retryable = response.status >= 500 || response.status === 429;
        throw failure(
          `the arXiv API at ${where} answered HTTP ${response.status} ${response.statusText}`.trim(),
          !retryable,
        );
      }
    } catch (error) {
      if (error instanceof ApplicationFailure) throw error;
      if (signal?.aborted === true) throw signal.reason as Error;
      const why = timeout.aborted ? `no answer within ${timeoutMs} ms` : describe(error);
      throw failure(`could not reach the arXiv API at ${where}: ${why}`, false, error);
    }
    let feed: ArxivFeed;
    try {
      feed = parseArxivFeed(xml);
    } catch (error) {
      if (error instanceof ArxivQueryError)
        throw failure(`arXiv rejected the query: ${error.message}; rephrase it`, true);
      if (error instanceof MalformedFeed)
        throw failure(
          `the arXiv API at ${where} sent malformed Atom XML: ${error.message}; check ARXIV_API_URL`,
          true,
        );
      throw error;
    }
    return {
      type: "arxiv_search_result",
      query: input.query,
      total: feed.total,
      start: input.start,
      papers: feed.papers,
      content: arxivMarkdown(input, feed),
    };
  }

  return {
    name: "arxiv_search",
    category: "research",
    description: [
      "Search arXiv for scientific papers in physics, mathematics, computer science, statistics and related fields.",
      "Pass keywords in `query`; narrow with `category` (cs.AI, hep-th…) or `searchIn` (title, abstract, author); page with `start`.",
      "Returns each paper's id, title, authors, dates, abstract and links; cite papers by their arXiv id.",
    ].join(" "),
    inputSchema: arxivSearchInput,
    runsLong: true,
    unavailable: () =>
      options.apiUrl === undefined
        ? { reason: unconfigured, failure: () => failure(unconfigured, true) }
        : undefined,
    execute: search,
  };
}

const unconfigured =
  "not configured: set ARXIV_API_URL in the worker's environment to the arXiv API's query endpoint (arXiv's API user manual names it) and restart the worker";

function describe(error: unknown): string {
  // fetch reports the socket's error (ECONNREFUSED, ENOTFOUND…) as the cause of "fetch failed".
  const cause =
    error instanceof Error && error.cause instanceof Error ? ` (${error.cause.message})` : "";
  return `${error instanceof Error ? error.message : String(error)}${cause}`;
}

function apiUrlFromEnv(value: string | undefined): string | undefined {
  const trimmed = value?.trim() ?? "";
  if (trimmed === "") return undefined;
  // A bad value stops the worker at start, naming the variable, like every other setting.
  if (!URL.canParse(trimmed) || !/^https?:$/.test(new URL(trimmed).protocol)) {
    throw new Error(
      `ARXIV_API_URL must be an http(s) URL, got ${JSON.stringify(trimmed)}; set it to the arXiv API's query endpoint`,
    );
  }
  return trimmed;
}

export default createArxivSearchTool({ apiUrl: apiUrlFromEnv(process.env["ARXIV_API_URL"]) });
