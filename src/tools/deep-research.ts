import { APICallError, generateText } from "ai";
import type { LanguageModel } from "ai";
import { z } from "zod";
import type { PageReader, PageReadResult } from "../search/page-reader.ts";
import { SearchProviderError } from "../search/search-provider-error.ts";
import type { SearchResultItem } from "./search.ts";
import { searchNotConfiguredReason } from "./search.ts";
import { formatResearchPrompt, researchInstructions } from "./research-prompt.ts";
import { nothingReadContent, researchContent } from "./research-report.ts";
import type { ResearchSource } from "./research-report.ts";
import { toolFailure } from "./tool-failure.ts";
import { requiredText, toolInputObject } from "./tool-input-schema.ts";
import { defineTool } from "./tool-module.ts";
import type { ToolContext, ToolServices, ToolUnavailable } from "./tool-module.ts";
import { sharedAcrossSessions } from "../orchestration/shared-across-sessions.ts";

export const researchDepthDefault = 2;
export const researchMaxSourcesMax = 10;
export const researchMaxSourcesDefault = 5;

/** Characters of each page's text the model reads, by depth. */
export const researchCharsPerSource: Readonly<Record<1 | 2 | 3, number>> = {
  1: 2_000,
  2: 6_000,
  3: 12_000,
};
/** All sources together: what a small model's context holds beside the instructions. */
export const researchCharsTotal = 60_000;

const depthMessage = "must be 1, 2 or 3";
const maxSourcesMessage = `must be a whole number from 1 to ${researchMaxSourcesMax}`;

// Built once per worker, not per cached session (see shared-across-sessions.ts).
export const deepResearchInputSchema = sharedAcrossSessions("src/tools/deep-research", () =>
  toolInputObject({
    query: requiredText("The research question, as a full question or a focused search phrase."),
    depth: z
      .literal([1, 2, 3], { error: depthMessage })
      .default(researchDepthDefault)
      .describe(
        `How much of each page to read: 1 its beginning (quick), 2 the main part, 3 most of a long page; ${researchDepthDefault} when omitted.`,
      ),
    maxSources: z
      .number({ error: maxSourcesMessage })
      .int({ error: maxSourcesMessage })
      .min(1, { error: maxSourcesMessage })
      .max(researchMaxSourcesMax, { error: maxSourcesMessage })
      .default(researchMaxSourcesDefault)
      .describe(
        `How many of the top search results to read, 1 to ${researchMaxSourcesMax}; ${researchMaxSourcesDefault} when omitted.`,
      ),
  }),
);

export type DeepResearchInput = z.infer<typeof deepResearchInputSchema>;

export interface DeepResearchResult {
  type: "deep_research_result";
  content: string;
  sources: ResearchSource[];
}

const pageReaderMissingReason =
  "not configured: this worker has no page reader (a worker started by this project always has one)";

function unavailableFailure(reason: string) {
  return () =>
    toolFailure(
      "SearchNotConfigured",
      `deep_research cannot run on this server: ${reason}. Tell the user that research is unavailable instead of calling this tool again.`,
      { nonRetryable: true },
    );
}

function deepResearchUnavailable(services: ToolServices): ToolUnavailable | undefined {
  if (services.searchProvider === undefined) {
    return {
      reason: searchNotConfiguredReason,
      failure: unavailableFailure(searchNotConfiguredReason),
    };
  }
  if (services.pageReader === undefined) {
    return {
      reason: pageReaderMissingReason,
      failure: unavailableFailure(pageReaderMissingReason),
    };
  }
  return undefined;
}

async function searchSources(
  { query, maxSources }: DeepResearchInput,
  { services, signal }: ToolContext,
): Promise<SearchResultItem[]> {
  const provider = services.searchProvider;
  if (provider === undefined) throw unavailableFailure(searchNotConfiguredReason)();
  let hits: SearchResultItem[];
  try {
    hits = await provider.search(query, maxSources, signal);
  } catch (error) {
    if (error instanceof SearchProviderError) {
      throw error.retryable
        ? toolFailure("SearchUnavailable", `deep_research: ${error.message}`, {
            nonRetryable: false,
            cause: error,
          })
        : toolFailure("SearchFailed", `deep_research: ${error.message}`, {
            nonRetryable: true,
            cause: error,
          });
    }
    throw error;
  }
  const seen = new Set<string>();
  return hits.filter((hit) => !seen.has(hit.url) && seen.add(hit.url)).slice(0, maxSources);
}

/** Each result read, in search order, citations numbering the read ones from 1. */
function numberSources(
  hits: readonly SearchResultItem[],
  pages: readonly PageReadResult[],
): { sources: ResearchSource[]; texts: string[] } {
  const sources: ResearchSource[] = [];
  const texts: string[] = [];
  hits.forEach((hit, index) => {
    const page = pages[index];
    if (page?.ok === true) {
      texts.push(page.text);
      sources.push({
        url: hit.url,
        title: hit.title || page.title || hit.url,
        status: "read",
        citation: texts.length,
        truncated: page.truncated,
      });
    } else {
      const reason = page?.reason ?? "not read";
      sources.push({ url: hit.url, title: hit.title || hit.url, status: "unreachable", reason });
    }
  });
  return { sources, texts };
}

async function writeReport(
  model: LanguageModel,
  prompt: string,
  signal: AbortSignal | undefined,
): Promise<string> {
  try {
    const result = await generateText({
      model,
      instructions: researchInstructions(),
      prompt,
      // The activity's retry policy owns retries.
      maxRetries: 0,
      abortSignal: signal,
    });
    return result.text.trim();
  } catch (error) {
    if (signal?.aborted === true) throw signal.reason;
    if (APICallError.isInstance(error)) {
      throw toolFailure(
        "ResearchFailed",
        `deep_research: the model call failed: ${error.message}`,
        {
          nonRetryable: !error.isRetryable,
          cause: error,
        },
      );
    }
    throw error;
  }
}

/**
 * Searches, reads the top pages, and has the session's model write a cited report on what was
 * read. Pages that cannot be read are listed with the reason; with none read there is no model
 * call and no report.
 *
 * @throws {ApplicationFailure} `SearchNotConfigured` without a provider, `SearchFailed` or
 *   `SearchUnavailable` (retryable) when the search fails, `ResearchFailed` when the model
 *   cannot be used or fails (retryable when the provider says so).
 */
export async function runDeepResearch(
  input: DeepResearchInput,
  context: ToolContext,
): Promise<DeepResearchResult> {
  const { services, signal } = context;
  const reader: PageReader | undefined = services.pageReader;
  if (reader === undefined) throw unavailableFailure(pageReaderMissingReason)();
  const hits = await searchSources(input, context);
  const pages = await Promise.all(hits.map((hit) => reader.read(hit.url, signal)));
  const { sources, texts } = numberSources(hits, pages);
  if (texts.length === 0) {
    return {
      type: "deep_research_result",
      content: nothingReadContent(input.query, sources),
      sources,
    };
  }
  const perSource = Math.min(
    researchCharsPerSource[input.depth],
    Math.floor(researchCharsTotal / texts.length),
  );
  const prompt = formatResearchPrompt(
    input.query,
    sources.flatMap((source) =>
      source.status === "read"
        ? [
            {
              citation: source.citation,
              title: source.title,
              url: source.url,
              text: clip(withoutFootnoteMarks(texts[source.citation - 1] ?? ""), perSource),
            },
          ]
        : [],
    ),
  );
  let model: LanguageModel;
  try {
    model = context.sessionModel();
  } catch (error) {
    throw toolFailure(
      "ResearchFailed",
      `deep_research: cannot use the session's model: ${error instanceof Error ? error.message : String(error)}`,
      {
        nonRetryable: true,
        ...(error instanceof Error ? { cause: error } : {}),
      },
    );
  }
  const report = await writeReport(model, prompt, signal);
  if (report === "") {
    throw toolFailure("ResearchFailed", "deep_research: the model returned an empty report", {
      nonRetryable: false,
    });
  }
  return {
    type: "deep_research_result",
    content: researchContent(input.query, report, sources),
    sources,
  };
}

/**
 * A page's own footnote marks (`[12]`, `[citation needed]`) read like the report's citations:
 * the model would repeat them as if they pointed at our sources.
 */
function withoutFootnoteMarks(text: string): string {
  return text.replace(/\[(?:\d+|[a-z]|citation needed|note \d+)\]/gi, "");
}

/** At most `limit` characters, cut at a word boundary when one is near. */
function clip(text: string, limit: number): string {
  if (text.length <= limit) return text;
  const cut = text.slice(0, limit);
  const space = cut.lastIndexOf(" ");
  return `${space > limit * 0.8 ? cut.slice(0, space) : cut} …`;
}

export const deepResearchTool = defineTool({
  name: "deep_research",
  category: "research",
  description: [
    "Research a question in depth: search the web, read the top pages, and get back a Markdown report on what they say, with numbered citations [1] [2] and the list of sources they point to.",
    "Use it for questions that need several current sources read and compared, not for a quick fact (use `search` for that).",
    `Pass the question in \`query\`; \`maxSources\` (1 to ${researchMaxSourcesMax}, default ${researchMaxSourcesDefault}) sets how many results are read and \`depth\` (1 to 3, default ${researchDepthDefault}) how much of each page.`,
    "Keep the citations when you quote the report. Pages that could not be read are listed with the reason and nothing is drawn from them: tell the user when sources were missing.",
  ].join(" "),
  inputSchema: deepResearchInputSchema,
  runsLong: true,
  unavailable: deepResearchUnavailable,
  // A plain call, so the worker log's stack traces name `runDeepResearch`, not `Object.execute`.
  execute: (input, context) => runDeepResearch(input, context),
});
