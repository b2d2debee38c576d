/**
 * Policy names of MCP tools: `mcp.<server>.<tool>`. Templates, step policies, sequences, events
 * and history all use this name; only the request to a model provider uses a wire name (see
 * `src/llm/tool-wire-names.ts`), since providers refuse dots.
 */
export const MCP_TOOL_PREFIX = "mcp.";

/** The policy category of every MCP tool: `*mcp*` selects them all, as `*cognitive*` does. */
export const MCP_TOOL_CATEGORY = "mcp";

/**
 * A server name becomes the middle part of its tools' names, so it cannot contain a dot: the
 * first dot after the prefix always ends the server name.
 */
export const mcpServerNamePattern = /^[A-Za-z0-9_-]{1,40}$/;

export function mcpToolName(server: string, tool: string): string {
  return `${MCP_TOOL_PREFIX}${server}.${tool}`;
}

export function isMcpToolName(name: string): boolean {
  return name.startsWith(MCP_TOOL_PREFIX);
}

/** `mcp.docs.lookup` → `{server: "docs", tool: "lookup"}`; undefined for any other name. */
export function parseMcpToolName(name: string): { server: string; tool: string } | undefined {
  if (!isMcpToolName(name)) return undefined;
  const rest = name.slice(MCP_TOOL_PREFIX.length);
  const dot = rest.indexOf(".");
  if (dot <= 0 || dot === rest.length - 1) return undefined;
  const server = rest.slice(0, dot);
  if (!mcpServerNamePattern.test(server)) return undefined;
  return { server, tool: rest.slice(dot + 1) };
}

/**
 * The catalogue entry standing for every tool of a configured server: its tools are known only
 * when the worker connects, but a template naming them must load before that.
 */
export function mcpServerFamily(server: string): string {
  return `${MCP_TOOL_PREFIX}${server}.*`;
}
