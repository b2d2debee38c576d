import type { SearchResultItem } from "../tools/index.ts";

/**
 * A web search backend. Implementations throw `SearchProviderError` for
 * failures they can classify, and rethrow the caller's `signal.reason` when
 * the caller aborts.
 */
export interface SearchProvider {
  /** Short lowercase name used in messages, for example `searxng`. */
  name: string;
  search(query: string, limit: number, signal?: AbortSignal): Promise<SearchResultItem[]>;
}
