import { brainstormTool } from "./brainstorm.ts";
import { compareTool } from "./compare.ts";
import { critiqueTool } from "./critique.ts";
import { debateTool } from "./debate.ts";
import { reflectTool } from "./reflect.ts";
import { searchTool } from "./search.ts";
import { summarizeTool } from "./summarize.ts";
import { thinkTool } from "./think.ts";
import type { ToolCatalogueEntry, ToolDefinition } from "./tool-definition.ts";

/** Every shipped tool, in the order they are offered to the model. */
export const toolCatalogue: readonly ToolDefinition[] = [
  thinkTool,
  reflectTool,
  critiqueTool,
  debateTool,
  brainstormTool,
  compareTool,
  summarizeTool,
  searchTool,
];

export function findTool(name: string): ToolDefinition | undefined {
  return toolCatalogue.find((tool) => tool.name === name);
}

export const toolCatalogueEntries: readonly ToolCatalogueEntry[] = toolCatalogue.map(
  ({ name, category }) => ({ name, category }),
);
