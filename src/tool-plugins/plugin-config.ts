import { delimiter } from "node:path";
import { z } from "zod";

/** Where a worker (and the CLI) finds tool plug-ins. Both lists empty: built-in tools only. */
export interface ToolPluginConfig {
  /** Folders whose `.ts`, `.mts`, `.js` and `.mjs` files are each a plug-in module. */
  dirs: string[];
  /** Package names (resolved from this project) or module files, each a plug-in module. */
  modules: string[];
}

export type ToolPluginEnv = Readonly<Record<string, string | undefined>>;

// Empty entries (`a::b`, a trailing separator, `VAR=` in a .env file) mean nothing, not "here".
function splitList(separator: string) {
  return z
    .string()
    .optional()
    .transform((value) =>
      (value ?? "")
        .split(separator)
        .map((entry) => entry.trim())
        .filter((entry) => entry !== ""),
    );
}

const pluginEnvSchema = z.object({
  // Separated like PATH (":" here, ";" on Windows), so folder lists read the way PATH does.
  AGENTDOCK_TOOL_DIRS: splitList(delimiter),
  // Commas: package names cannot contain one, and file paths rarely do.
  AGENTDOCK_TOOL_MODULES: splitList(","),
});

export function toolPluginConfigFromEnv(env: ToolPluginEnv): ToolPluginConfig {
  const parsed = pluginEnvSchema.parse(env);
  return { dirs: parsed.AGENTDOCK_TOOL_DIRS, modules: parsed.AGENTDOCK_TOOL_MODULES };
}

export function hasToolPlugins(config: ToolPluginConfig): boolean {
  return config.dirs.length > 0 || config.modules.length > 0;
}
