/** What the orchestration core needs to know of a tool: its name and, for patterns, its category. */
export interface ToolCatalogueEntry {
  name: string;
  category?: string;
}
