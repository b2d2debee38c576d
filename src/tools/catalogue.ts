import { createToolRegistry } from "./builtin-tools.ts";
import type { ToolCatalogueEntry, ToolDefinition } from "./tool-definition.ts";

// Views of the built-in registry for code that needs no plug-ins (the agent loader, the CLI).
const builtinRegistry = createToolRegistry();

/** Every shipped tool, in the order they are offered to the model. */
export const toolCatalogue: readonly ToolDefinition[] = builtinRegistry.tools;

export function findTool(name: string): ToolDefinition | undefined {
  return builtinRegistry.find(name);
}

export const toolCatalogueEntries: readonly ToolCatalogueEntry[] =
  builtinRegistry.catalogueEntries();
