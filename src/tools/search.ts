import { z } from "zod";
import { SearchProviderError } from "../search/search-provider-error.ts";
import type { SearchProvider } from "../search/search-provider.ts";
import { toolFailure } from "./tool-failure.ts";
import { requiredText, toolInputObject } from "./tool-input-schema.ts";
import { defineTool } from "./tool-module.ts";
import type { ToolContext, ToolServices, ToolUnavailable } from "./tool-module.ts";
import { sharedAcrossSessions } from "../orchestration/shared-across-sessions.ts";

export const searchLimitMin = 1;
export const searchLimitMax = 25;
export const searchLimitDefault = 8;

const limitMessage = `must be a whole number from ${searchLimitMin} to ${searchLimitMax}`;

// Built once per worker, not per cached session (see shared-across-sessions.ts).
export const searchInputSchema = sharedAcrossSessions("src/tools/search", () =>
  toolInputObject({
    query: requiredText("What to search for, phrased as you would type it into a search engine."),
    limit: z
      .number({ error: limitMessage })
      .int({ error: limitMessage })
      .min(searchLimitMin, { error: limitMessage })
      .max(searchLimitMax, { error: limitMessage })
      .default(searchLimitDefault)
      .describe(
        `How many results to return, from ${searchLimitMin} to ${searchLimitMax}; ${searchLimitDefault} when omitted.`,
      ),
  }),
);

export type SearchInput = z.infer<typeof searchInputSchema>;

export interface SearchResultItem {
  title: string;
  url: string;
  snippet: string;
}

export interface SearchResult {
  type: "search_result";
  results: SearchResultItem[];
}

export const searchNotConfiguredReason =
  "not configured: no search provider (an operator sets SEARCH_PROVIDER=searxng and SEARXNG_URL=<base URL of a SearXNG instance> in the worker's environment and restarts it)";

function searchNotConfiguredFailure() {
  return toolFailure(
    "SearchNotConfigured",
    [
      "Web search is not configured on this server, so no results are available.",
      "To enable it, an operator sets SEARCH_PROVIDER=searxng and SEARXNG_URL=http://<host>:<port> (the base URL of a SearXNG instance with the json format enabled) in the worker's environment and restarts the worker.",
      "Tell the user that search is unavailable instead of calling this tool again.",
    ].join(" "),
    { nonRetryable: true },
  );
}

function searchProviderFailure(error: SearchProviderError) {
  return error.retryable
    ? toolFailure("SearchUnavailable", error.message, { nonRetryable: false, cause: error })
    : toolFailure("SearchFailed", error.message, { nonRetryable: true, cause: error });
}

function searchUnavailable({ searchProvider }: ToolServices): ToolUnavailable | undefined {
  return searchProvider === undefined
    ? { reason: searchNotConfiguredReason, failure: searchNotConfiguredFailure }
    : undefined;
}

/**
 * @throws {ApplicationFailure} `SearchNotConfigured` without a provider, `SearchFailed` or
 *   `SearchUnavailable` (retryable) when the provider fails.
 */
export async function runSearchTool(
  { query, limit }: SearchInput,
  { services, signal }: ToolContext,
): Promise<SearchResult> {
  const provider: SearchProvider | undefined = services.searchProvider;
  if (provider === undefined) {
    throw searchNotConfiguredFailure();
  }
  try {
    const hits = await provider.search(query, limit, signal);
    return {
      type: "search_result",
      results: hits.slice(0, limit).map(({ title, url, snippet }) => ({ title, url, snippet })),
    };
  } catch (error) {
    if (error instanceof SearchProviderError) {
      throw searchProviderFailure(error);
    }
    throw error;
  }
}

export const searchTool = defineTool({
  name: "search",
  category: "research",
  description: [
    "Search the web for current or specific information you do not know or cannot verify: recent events, facts, documentation, sources to cite.",
    "Use a focused `query`; run several searches for several questions rather than one broad one.",
    `Returns up to \`limit\` results (default ${searchLimitDefault}), each with a title, url and snippet; cite the url when you use a result.`,
    "If no search provider is configured, the tool returns an error saying which setting is missing; tell the user rather than retrying.",
  ].join(" "),
  inputSchema: searchInputSchema,
  runsLong: true,
  unavailable: searchUnavailable,
  // A plain call, so the worker log's stack traces name `runSearchTool`, not `Object.execute`.
  execute: (input, context) => runSearchTool(input, context),
});
