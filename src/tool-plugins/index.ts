// Node-only (file system, dynamic import): outside src/tools, whose modules workflows import.
export { createPluginToolRegistry, loadToolPlugins } from "./load-tool-plugins.ts";
export type { LoadedToolPlugins } from "./load-tool-plugins.ts";
export { hasToolPlugins, toolPluginConfigFromEnv } from "./plugin-config.ts";
export type { ToolPluginConfig, ToolPluginEnv } from "./plugin-config.ts";
export { ToolPluginError } from "./tool-plugin-error.ts";
export { pluginInputJsonSchema, validatePluginTool } from "./validate-plugin-tool.ts";
