import type { SearchProvider } from "../src/search/index.ts";
import { SearchProviderError } from "../src/search/index.ts";
import { parseToolInput, searchTool } from "../src/tools/index.ts";
import type { SearchResult } from "../src/tools/index.ts";
import { searchNotConfiguredFailure, searchProviderFailure } from "./tool-failures.ts";

/**
 * @throws {ApplicationFailure} `SearchNotConfigured` without a provider (checked
 *   before the input, since no corrected call can succeed), `SearchFailed` or
 *   `SearchUnavailable` when the provider fails.
 * @throws {ToolInputError} when the arguments are invalid.
 */
export async function runSearchTool(
  rawInput: unknown,
  provider: SearchProvider | undefined,
  signal: AbortSignal | undefined,
): Promise<SearchResult> {
  if (provider === undefined) {
    throw searchNotConfiguredFailure();
  }
  const { query, limit } = parseToolInput(searchTool, rawInput);
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
