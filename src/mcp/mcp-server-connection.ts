import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StdioClientTransport } from "@modelcontextprotocol/sdk/client/stdio.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import type { Transport } from "@modelcontextprotocol/sdk/shared/transport.js";
import {
  ErrorCode,
  McpError,
  ToolListChangedNotificationSchema,
  type CallToolResult,
  type Tool,
} from "@modelcontextprotocol/sdk/types.js";
import type { McpServerConfig } from "./mcp-config.ts";

/** A tool as the server lists it: what the model is offered. */
export interface McpListedTool {
  name: string;
  description: string;
  inputSchema: Record<string, unknown>;
}

export type McpServerState =
  { status: "up"; tools: readonly McpListedTool[] } | { status: "down"; reason: string };

// McpError carries the JSON-RPC code as a plain number.
const connectionClosed: number = ErrorCode.ConnectionClosed;
const requestTimeout: number = ErrorCode.RequestTimeout;

const clientInfo = { name: "agentdock-temporal", version: "0.1.0" };
// The last lines a stdio server wrote to stderr explain why it would not start or died.
const stderrTail = 600;
// A liveness check: a server that cannot answer a ping this fast is not fit to run a turn's tool.
const pingTimeoutMs = 2_000;

function message(error: unknown): string {
  if (error instanceof McpError && error.code === connectionClosed) return "the connection closed";
  const text = error instanceof Error ? error.message : String(error);
  const cause = error instanceof Error && error.cause instanceof Error ? error.cause.message : "";
  return cause !== "" && !text.includes(cause) ? `${text} (${cause})` : text;
}

class Deadline extends Error {
  override readonly name = "Deadline";
}

function within<T>(ms: number, work: Promise<T>, what: string): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => {
      reject(new Deadline(`no answer to ${what} within ${ms / 1000} s`));
    }, ms);
  });
  return Promise.race([work, timeout]).finally(() => {
    clearTimeout(timer);
  });
}

/**
 * One configured MCP server, seen from the worker: connects on demand (single flight), caches
 * its tool list until the server says it changed, and notices when the process exits or the
 * connection closes, so the next check reconnects. Every wait is bounded: a server that hangs
 * costs at most its connect timeout, never a stuck turn.
 */
export class McpServerConnection {
  readonly name: string;
  readonly config: McpServerConfig;
  #client: Client | undefined;
  #tools: McpListedTool[] | undefined;
  #connecting: Promise<McpServerState> | undefined;
  #lastFailure = "not connected yet";
  #stderr = "";
  #closed = false;
  readonly #closing = new Set<Promise<void>>();

  constructor(name: string, config: McpServerConfig) {
    this.name = name;
    this.config = config;
  }

  /** What is known without any I/O. */
  get state(): McpServerState {
    return this.#client !== undefined && this.#tools !== undefined
      ? { status: "up", tools: this.#tools }
      : { status: "down", reason: this.#lastFailure };
  }

  /**
   * Makes sure the server answers: pings a connected server, (re)connects one that is down or
   * does not answer, and lists its tools when the list is unknown. Never throws; bounded by the
   * server's connect timeout plus one ping.
   */
  async ready(): Promise<McpServerState> {
    if (this.#closed) return { status: "down", reason: "the worker is shutting down" };
    const client = this.#client;
    if (client !== undefined && this.#connecting === undefined) {
      try {
        await client.ping({ timeout: pingTimeoutMs });
        if (this.#tools === undefined) this.#tools = await this.#listTools(client);
        return this.state;
      } catch (error) {
        this.#drop(`did not answer: ${message(error)}`);
      }
    }
    this.#connecting ??= this.#connect().finally(() => {
      this.#connecting = undefined;
    });
    return this.#connecting;
  }

  /**
   * Calls one tool. A server that is down gets one reconnect first; the call itself is bounded
   * by the server's call timeout and stops when `signal` aborts (the activity was cancelled).
   *
   * @throws {McpUnreachableError} when the server cannot be reached or dies during the call.
   */
  async call(
    tool: string,
    args: unknown,
    signal: AbortSignal | undefined,
  ): Promise<CallToolResult> {
    let client = this.#client;
    if (client === undefined) {
      const state = await this.ready();
      client = this.#client;
      if (state.status === "down" || client === undefined)
        throw new McpUnreachableError(this.name, state.status === "down" ? state.reason : "");
    }
    const input =
      typeof args === "object" && args !== null && !Array.isArray(args)
        ? (args as Record<string, unknown>)
        : {};
    try {
      const result = await client.callTool({ name: tool, arguments: input }, undefined, {
        timeout: this.config.callTimeoutMs,
        ...(signal === undefined ? {} : { signal }),
      });
      return result as CallToolResult;
    } catch (error) {
      if (signal?.aborted === true) throw error;
      if (error instanceof McpError && error.code === requestTimeout) {
        throw new McpCallError(
          `MCP server ${this.name} did not answer ${tool} within ${this.config.callTimeoutMs / 1000} s (its callTimeoutSeconds); the call was abandoned`,
        );
      }
      if (error instanceof McpError && error.code !== connectionClosed) {
        // The server answered with a protocol error (unknown tool, invalid params): its words.
        throw new McpCallError(
          `MCP server ${this.name} refused the call to ${tool}: ${error.message}`,
        );
      }
      // The process exit may have been noticed first: its reason (with stderr) says more.
      if (this.#client === client) this.#drop(message(error));
      throw new McpUnreachableError(this.name, `${tool} did not finish: ${this.#lastFailure}`);
    }
  }

  /** Closes the connection (the stdio server is stopped) and refuses to reconnect. */
  async close(): Promise<void> {
    this.#closed = true;
    await this.#connecting?.catch(() => undefined);
    // A streamable HTTP server that keeps sessions is told this one ends (bounded: it may be down).
    const transport = this.#client?.transport;
    if (transport instanceof StreamableHTTPClientTransport && transport.sessionId !== undefined) {
      await within(1_000, transport.terminateSession(), "end the session").catch(() => undefined);
    }
    this.#drop("the worker is shutting down");
    await Promise.all(this.#closing);
  }

  async #connect(): Promise<McpServerState> {
    this.#drop(this.#lastFailure);
    const transport = this.#transport();
    const client = new Client(clientInfo, { capabilities: {} });
    transport.onclose = () => {
      if (this.#client === client) this.#drop(this.#closedReason());
    };
    client.setNotificationHandler(ToolListChangedNotificationSchema, () => {
      if (this.#client === client) this.#tools = undefined;
    });
    try {
      const tools = await within(
        this.config.connectTimeoutMs,
        (async () => {
          await client.connect(transport);
          return this.#listTools(client);
        })(),
        "connect and list tools",
      );
      if (this.#closed) {
        await client.close().catch(() => undefined);
        return { status: "down", reason: "the worker is shutting down" };
      }
      this.#client = client;
      this.#tools = tools;
      return this.state;
    } catch (error) {
      const closed = error instanceof McpError && error.code === connectionClosed;
      this.#lastFailure =
        closed && this.config.transport === "stdio"
          ? this.#closedReason()
          : `${message(error)}${this.#stderrDetail()}`;
      // A hung stdio server may take seconds to stop: not on this check's time.
      this.#closeInBackground(client);
      return { status: "down", reason: this.#lastFailure };
    }
  }

  async #listTools(client: Client): Promise<McpListedTool[]> {
    const tools: Tool[] = [];
    let cursor: string | undefined;
    do {
      const page = await client.listTools(cursor === undefined ? {} : { cursor }, {
        timeout: this.config.connectTimeoutMs,
      });
      tools.push(...page.tools);
      cursor = page.nextCursor;
    } while (cursor !== undefined);
    return tools.map((tool) => ({
      name: tool.name,
      description:
        tool.description ?? tool.title ?? `Tool ${tool.name} of MCP server ${this.name}.`,
      inputSchema: tool.inputSchema,
    }));
  }

  #transport(): Transport {
    const config = this.config;
    if (config.transport === "streamable-http") {
      return new StreamableHTTPClientTransport(config.url, {
        requestInit: { headers: config.headers },
        // A dead server is noticed by the next request; background retries would only add noise.
        reconnectionOptions: {
          maxRetries: 0,
          initialReconnectionDelay: 1000,
          maxReconnectionDelay: 1000,
          reconnectionDelayGrowFactor: 1,
        },
      });
    }
    this.#stderr = "";
    const transport = new StdioClientTransport({
      command: config.command,
      args: config.args,
      env: config.env,
      cwd: config.cwd,
      stderr: "pipe",
    });
    transport.stderr?.on("data", (chunk: Buffer) => {
      this.#stderr = (this.#stderr + chunk.toString("utf8")).slice(-stderrTail);
    });
    return transport;
  }

  #stderrDetail(): string {
    const text = this.#stderr.trim();
    return text === "" ? "" : `; its stderr ends: ${text.split("\n").slice(-3).join(" | ")}`;
  }

  #closedReason(): string {
    return this.config.transport === "stdio"
      ? `the server process exited${this.#stderrDetail()}`
      : "the connection closed";
  }

  /**
   * Forgets the connection and closes it in the background: closing a stdio server may wait
   * seconds for it to exit, which a turn's availability check cannot spend. `close()` waits.
   */
  #drop(reason: string): void {
    const client = this.#client;
    this.#client = undefined;
    this.#tools = undefined;
    this.#lastFailure = reason;
    if (client !== undefined) this.#closeInBackground(client);
  }

  #closeInBackground(client: Client): void {
    const closing = client.close().catch(() => undefined);
    this.#closing.add(closing);
    void closing.finally(() => this.#closing.delete(closing));
  }
}

/** The server cannot be reached (down, exited, hung): the call never ran or its end is unknown. */
export class McpUnreachableError extends Error {
  override readonly name = "McpUnreachableError";
  constructor(server: string, reason: string) {
    super(`MCP server ${server} unreachable: ${reason}`);
  }
}

/** The server is up but the call failed: a protocol error (unknown tool) or no answer in time. */
export class McpCallError extends Error {
  override readonly name = "McpCallError";
}
