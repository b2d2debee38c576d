/** Value types `temporal server start-dev --search-attribute NAME=Type` accepts. */
export type SearchAttributeType =
  "Keyword" | "Text" | "Int" | "Double" | "Bool" | "Datetime" | "KeywordList";
