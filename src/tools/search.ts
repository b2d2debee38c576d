import { z } from "zod";
import type { ToolDefinition } from "./tool-definition.ts";
import { requiredText, toolInputObject } from "./tool-input-schema.ts";

export const searchLimitMin = 1;
export const searchLimitMax = 25;
export const searchLimitDefault = 8;

const limitMessage = `must be a whole number from ${searchLimitMin} to ${searchLimitMax}`;

export const searchInputSchema = toolInputObject({
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
});

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

export const searchTool: ToolDefinition<SearchInput> = {
  name: "search",
  category: "research",
  description: [
    "Search the web for current or specific information you do not know or cannot verify: recent events, facts, documentation, sources to cite.",
    "Use a focused `query`; run several searches for several questions rather than one broad one.",
    `Returns up to \`limit\` results (default ${searchLimitDefault}), each with a title, url and snippet; cite the url when you use a result.`,
    "If no search provider is configured, the tool returns an error saying which setting is missing; tell the user rather than retrying.",
  ].join(" "),
  inputSchema: searchInputSchema,
};
