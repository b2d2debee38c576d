export { createSearchProvider } from "./create-search-provider.ts";
export { searchConfigFromEnv, searchTimeoutMsDefault } from "./search-config.ts";
export type { SearchConfig, SearchEnv } from "./search-config.ts";
export { SearchConfigError } from "./search-config-error.ts";
export type { SearchProvider } from "./search-provider.ts";
export { SearchProviderError } from "./search-provider-error.ts";
export type { SearchProviderErrorOptions } from "./search-provider-error.ts";
export { createSearxngProvider } from "./searxng-provider.ts";
export type { SearxngProviderOptions } from "./searxng-provider.ts";
export { decodeEntities, htmlTitle, htmlToText } from "./html-to-text.ts";
export { createHttpPageReader, pageMaxBytesDefault, pageTimeoutMsDefault } from "./page-reader.ts";
export type {
  HttpPageReaderOptions,
  PageRead,
  PageReader,
  PageReadResult,
  PageUnreachable,
} from "./page-reader.ts";
