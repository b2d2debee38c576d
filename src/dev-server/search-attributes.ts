/** Value types `temporal server start-dev --search-attribute NAME=Type` accepts. */
export type SearchAttributeType =
  "Keyword" | "Text" | "Int" | "Double" | "Bool" | "Datetime" | "KeywordList";

/** Custom search attributes every agent session upserts; the dev server pre-registers them. */
export const sessionSearchAttributes = {
  AgentId: "Keyword",
  ActiveStep: "Keyword",
  SessionStatus: "Keyword",
  TurnCount: "Int",
} as const satisfies Record<string, SearchAttributeType>;
