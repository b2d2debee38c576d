import type { SearchConfig } from "./search-config.ts";
import type { SearchProvider } from "./search-provider.ts";
import { createSearxngProvider } from "./searxng-provider.ts";

/** The configured provider, or undefined when search is not configured. */
export function createSearchProvider(config: SearchConfig): SearchProvider | undefined {
  switch (config.provider) {
    case "none":
      return undefined;
    case "searxng":
      return createSearxngProvider({ baseUrl: config.searxngUrl, timeoutMs: config.timeoutMs });
    default: {
      const unreachable: never = config;
      throw new Error(`Unknown search provider in ${JSON.stringify(unreachable)}`);
    }
  }
}
