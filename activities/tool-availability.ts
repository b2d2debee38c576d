export interface ToolAvailabilityInput {
  /** The agent's tool names, as its template lists them. */
  tools: string[];
  /** Also describe the plug-in tools this worker has (sessions with the `plugin-tools` patch). */
  describePlugins?: boolean;
}

/**
 * A plug-in tool as the workflow offers it to the model: the workflow cannot import worker code,
 * so the definition reaches it as plain JSON, through history, and replays identically.
 */
export interface PluginToolDefinition {
  name: string;
  category: string;
  description: string;
  /** The input's JSON schema (a strict object), as the model is shown it. */
  inputJsonSchema: Record<string, unknown>;
}

/**
 * Plain JSON, recorded in history: tool name → why this worker cannot run it. The tool
 * registry computes it (`ToolRegistry.unavailable`).
 */
export interface ToolAvailability {
  unavailable: Record<string, string>;
  /** The agent's tools this worker has beyond the built-in ones; asked for with `describePlugins`. */
  pluginTools?: PluginToolDefinition[];
}
