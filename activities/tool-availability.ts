export interface ToolAvailabilityInput {
  /** The agent's tool names, as its template lists them. */
  tools: string[];
  /**
   * Also describe the plug-in and MCP tools this worker has (sessions with the `plugin-tools`
   * patch); without it, MCP tools are reported unavailable (the session could not offer them).
   */
  describePlugins?: boolean;
  /**
   * The answer this session recorded last (the workflow remembers it): when the answer is the
   * same, the activity says so instead of repeating it. A local activity's input is not recorded
   * in history and its result is, so a turn on an unchanged worker records a few bytes, not every
   * reason and plug-in schema again.
   */
  known?: ToolAvailability;
}

/**
 * A plug-in or MCP tool as the workflow offers it to the model: the workflow cannot import worker
 * code (and an MCP tool's description exists only on its server), so the definition reaches it as
 * plain JSON, through history, and replays identically. An MCP tool's name is its policy name
 * (`mcp.docs.lookup`) and its category `mcp`; its schema is the server's `inputSchema`.
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
  /**
   * The agent's tools this worker has beyond the built-in ones (plug-ins, then MCP tools that can
   * run now), in the agent's order; asked for with `describePlugins`.
   */
  pluginTools?: PluginToolDefinition[];
}

/** The answer when it equals the `known` one the workflow sent. */
export interface UnchangedAvailability {
  unchanged: true;
}

export type ToolAvailabilityAnswer = ToolAvailability | UnchangedAvailability;

/** A check that sends no `known` answer always gets the full one. */
export type AvailabilityFor<I extends ToolAvailabilityInput> = "known" extends keyof I
  ? ToolAvailabilityAnswer
  : ToolAvailability;

/** Whether an answer repeats `known`: both as JSON, the form in which the workflow holds it. */
export function sameAvailability(answer: ToolAvailability, known: ToolAvailability): boolean {
  return JSON.stringify(answer) === JSON.stringify(known);
}
