import { toolFailure } from "../tools/tool-failure.ts";
import { createRedactor, type Redactor } from "../worker/redact-secrets.ts";
import type {
  ExternalToolCheck,
  ExternalToolDefinition,
  ExternalToolSource,
} from "../tools/tool-registry.ts";
import type { ToolCatalogueEntry } from "../tools/tool-definition.ts";
import { MCP_SERVERS_ENV, type McpConfig } from "./mcp-config.ts";
import { mcpToolResult, mcpResultText, type McpToolResult } from "./mcp-result.ts";
import {
  McpCallError,
  McpServerConnection,
  McpUnreachableError,
  type McpServerState,
} from "./mcp-server-connection.ts";
import {
  isMcpToolName,
  MCP_TOOL_CATEGORY,
  mcpServerFamily,
  mcpToolName,
  parseMcpToolName,
} from "./mcp-tool-names.ts";

/** One server's state after a connect attempt, for the worker's start-up report. */
export interface McpServerReport {
  server: string;
  state: McpServerState;
}

/**
 * The worker's MCP servers as a tool source of the registry: tools named `mcp.<server>.<tool>`,
 * described from each server's own list and run by calling the server. Connections are made at
 * worker start, checked at every turn's availability check (a server that is down is
 * reconnected, bounded by its connect timeout) and closed when the worker stops.
 */
export class McpTools implements ExternalToolSource {
  readonly config: McpConfig;
  readonly #servers = new Map<string, McpServerConnection>();
  // Reasons are recorded in history as a result, not an error, so the activity boundary does
  // not redact them: a server's stderr may echo the token it was given.
  readonly #redactor: Redactor;

  constructor(config: McpConfig) {
    this.config = config;
    this.#redactor = createRedactor(config.secrets);
    for (const [name, server] of config.servers) {
      this.#servers.set(name, new McpServerConnection(name, server));
    }
  }

  get secrets(): readonly string[] {
    return this.config.secrets;
  }

  get serverNames(): readonly string[] {
    return [...this.#servers.keys()];
  }

  owns(name: string): boolean {
    return isMcpToolName(name);
  }

  /**
   * One entry per configured server, `mcp.<server>.*` (category `mcp`): templates naming that
   * server's tools load without a live connection; which tools exist is known at run time.
   */
  catalogueEntries(): ToolCatalogueEntry[] {
    return this.serverNames.map((server) => ({
      name: mcpServerFamily(server),
      category: MCP_TOOL_CATEGORY,
    }));
  }

  /** Connects every server at once; each is bounded by its connect timeout. Never throws. */
  async connectAll(): Promise<McpServerReport[]> {
    return Promise.all(
      [...this.#servers.values()].map(async (connection) => ({
        server: connection.name,
        state: await connection.ready(),
      })),
    );
  }

  /**
   * Connects every server (at worker start) and describes each: its tools, or why it is down.
   * A server that is down is not fatal: its tools are unavailable until it answers.
   */
  async connect(): Promise<string[]> {
    const reports = await this.connectAll();
    const lines = reports.map(({ server, state }) =>
      state.status === "up"
        ? `MCP server ${server}: ${state.tools.length} ${state.tools.length === 1 ? "tool" : "tools"} (${state.tools.map((tool) => mcpToolName(server, tool.name)).join(", ") || "none"})`
        : `MCP server ${server} unreachable: ${this.#redactor.text(state.reason)} (its tools are unavailable until it answers; checked again at every turn)`,
    );
    for (const server of this.config.disabled) lines.push(`MCP server ${server}: disabled`);
    return lines;
  }

  async check(names: readonly string[]): Promise<ExternalToolCheck> {
    const wanted = names.filter((name) => this.owns(name));
    const servers = new Set(
      wanted.flatMap((name) => {
        const server = parseMcpToolName(name)?.server;
        return server === undefined || !this.#servers.has(server) ? [] : [server];
      }),
    );
    const states = new Map(
      await Promise.all(
        [...servers].map(
          async (server) => [server, await this.#connection(server).ready()] as const,
        ),
      ),
    );
    const unavailable: Record<string, string> = {};
    const definitions: ExternalToolDefinition[] = [];
    for (const name of wanted) {
      const parsed = parseMcpToolName(name);
      const state = parsed === undefined ? undefined : states.get(parsed.server);
      if (parsed === undefined || state === undefined) {
        unavailable[name] = this.#notConfigured(name, parsed?.server);
        continue;
      }
      if (state.status === "down") {
        unavailable[name] = this.#redactor.text(
          `MCP server ${parsed.server} unreachable: ${state.reason}`,
        );
        continue;
      }
      const listed = state.tools.find((tool) => tool.name === parsed.tool);
      if (listed === undefined) {
        const offered = state.tools.map((tool) => mcpToolName(parsed.server, tool.name));
        unavailable[name] =
          `not offered by MCP server ${parsed.server} (it offers ${offered.join(", ") || "no tools"}); correct the name in the template`;
        continue;
      }
      definitions.push({
        name,
        category: MCP_TOOL_CATEGORY,
        description: listed.description,
        inputJsonSchema: listed.inputSchema,
      });
    }
    return { unavailable, definitions };
  }

  /**
   * Calls the server. Every failure is final for this call (MCP tools may have side effects,
   * so a call is not repeated): the model reads the message and decides.
   *
   * @throws {ApplicationFailure} `McpServerUnavailable` when the server cannot be reached or
   *   died during the call, `McpToolFailed` when the tool reports an error.
   */
  async run(name: string, input: unknown, signal: AbortSignal | undefined): Promise<McpToolResult> {
    const parsed = parseMcpToolName(name);
    if (parsed === undefined || !this.#servers.has(parsed.server)) {
      throw toolFailure("UnknownTool", this.#notConfigured(name, parsed?.server), {
        nonRetryable: true,
      });
    }
    let result;
    try {
      result = await this.#connection(parsed.server).call(parsed.tool, input, signal);
    } catch (error) {
      if (error instanceof McpUnreachableError) {
        throw toolFailure("McpServerUnavailable", error.message, { nonRetryable: true });
      }
      if (error instanceof McpCallError) {
        throw toolFailure("McpToolFailed", error.message, { nonRetryable: true });
      }
      throw error;
    }
    if (result.isError === true) {
      const text = mcpResultText(result) || "the tool reported an error without a message";
      throw toolFailure("McpToolFailed", `${name} failed: ${text}`, { nonRetryable: true });
    }
    return mcpToolResult(name, result);
  }

  /** Closes every connection (stdio servers are stopped); later checks report them down. */
  async close(): Promise<void> {
    await Promise.all([...this.#servers.values()].map((connection) => connection.close()));
  }

  #connection(server: string): McpServerConnection {
    const connection = this.#servers.get(server);
    if (connection === undefined) throw new Error(`no MCP server ${server} is configured`);
    return connection;
  }

  #notConfigured(name: string, server: string | undefined): string {
    if (server === undefined) {
      return `not installed: ${JSON.stringify(name)} is not an MCP tool name; write mcp.<server>.<tool>`;
    }
    if (this.config.disabled.includes(server)) {
      return `not installed: MCP server ${server} is disabled in ${this.config.file}`;
    }
    return `not installed: no MCP server ${JSON.stringify(server)} is configured on this worker (add it to the ${MCP_SERVERS_ENV} file, ${this.config.file})`;
  }
}
