/**
 * Tools AgentDock ships (its `src/nodes` registry). A template naming one of these that our
 * catalogue lacks still loads: the tool is reported as missing ("not installed here") instead of
 * refused, so AgentDock agents load unchanged and say what they need. Any other unknown name
 * loads the same way (a plug-in this process lacks) unless it is close to a known name: that is a
 * typo and stays an error, with the suggestion.
 */
export const agentDockToolNames: ReadonlySet<string> = new Set([
  "arxiv_fetch",
  "arxiv_search",
  "brainstorm",
  "compare",
  "critique",
  "crypto_price",
  "debate",
  "deep_research",
  "firecrawl_crawl",
  "firecrawl_crawl_status",
  "firecrawl_extract",
  "firecrawl_map",
  "firecrawl_scrape",
  "firecrawl_search",
  "generate_image",
  "openalex_fetch",
  "openalex_search",
  "pubmed_fetch",
  "pubmed_search",
  "reflect",
  "search",
  "semantic_scholar_author",
  "semantic_scholar_paper",
  "semantic_scholar_search",
  "snowtracer",
  "stock_price",
  "think",
  "trending_cryptos",
  "weather",
]);
