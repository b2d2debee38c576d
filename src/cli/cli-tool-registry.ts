import { loadMcpConfig } from "../mcp/mcp-config.ts";
import { McpTools } from "../mcp/mcp-tools.ts";
import {
  createPluginToolRegistry,
  hasToolPlugins,
  toolPluginConfigFromEnv,
} from "../tool-plugins/index.ts";
import { createToolRegistry, type ToolCatalogueEntry, type ToolRegistry } from "../tools/index.ts";
import type { CliContext } from "./cli-context.ts";
import { writeLine } from "./output.ts";

/**
 * The built-in tools plus the plug-ins AGENTDOCK_TOOL_DIRS and AGENTDOCK_TOOL_MODULES name and
 * the MCP servers of the AGENTDOCK_MCP_SERVERS file: the worker runs them, and the commands that
 * load templates check names and categories against them, so `agents` and the worker agree. A
 * broken plug-in rejects with a `ToolPluginError`, a broken MCP file with an `McpConfigError`,
 * each listing every problem (the CLI prints it and exits 1, like other configuration errors).
 */
export async function cliToolRegistry(
  context: Pick<CliContext, "env">,
  warn: (line: string) => void,
): Promise<ToolRegistry> {
  const registry = await pluginRegistry(context, warn);
  // Nothing connects here: templates are checked against the configured server names; the
  // worker connects when it starts (createSessionWorker).
  const mcp = await loadMcpConfig(context.env, process.cwd());
  if (mcp !== undefined) registry.attachSource(new McpTools(mcp));
  return registry;
}

async function pluginRegistry(
  context: Pick<CliContext, "env">,
  warn: (line: string) => void,
): Promise<ToolRegistry> {
  const config = toolPluginConfigFromEnv(context.env);
  if (!hasToolPlugins(config)) return createToolRegistry();
  const { registry, warnings } = await createPluginToolRegistry(config, { cwd: process.cwd() });
  for (const line of warnings) warn(line);
  return registry;
}

/** The catalogue templates are checked against, plug-in warnings going to stderr. */
export async function cliToolCatalogue(context: CliContext): Promise<ToolCatalogueEntry[]> {
  const registry = await cliToolRegistry(context, (line) => {
    writeLine(context.stderr, `warning: ${line}`);
  });
  return registry.catalogueEntries();
}
