import { createToolRegistry } from "../src/tools/index.ts";
import type { ToolRegistry } from "../src/tools/index.ts";
import { pluginInputJsonSchema } from "../src/tool-plugins/validate-plugin-tool.ts";
import type { PluginToolDefinition } from "./tool-availability.ts";

const builtinNames = new Set(createToolRegistry().names);

/**
 * The definitions of `names` this registry has beyond the built-in tools (the workflow has
 * those), in the agent's order. The schema is closed like the built-in tools' strict objects: the
 * model is told that no other field is accepted.
 */
export function pluginToolDefinitions(
  registry: ToolRegistry,
  names: readonly string[],
): PluginToolDefinition[] {
  return names.flatMap((name) => {
    const module = builtinNames.has(name) ? undefined : registry.find(name);
    if (module === undefined) return [];
    const json = pluginInputJsonSchema(module.inputSchema);
    // Validated at worker start; a module registered in code without that check is left out.
    if ("problem" in json) return [];
    const inputJsonSchema = { additionalProperties: false, ...json.schema };
    return [
      {
        name,
        category: module.category,
        description: module.description,
        inputJsonSchema,
      },
    ];
  });
}
