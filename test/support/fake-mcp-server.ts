import { randomUUID } from "node:crypto";
import { writeFileSync } from "node:fs";
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { fileURLToPath } from "node:url";
import { McpServer } from "@modelcontextprotocol/sdk/server/mcp.js";
import { StdioServerTransport } from "@modelcontextprotocol/sdk/server/stdio.js";
import { StreamableHTTPServerTransport } from "@modelcontextprotocol/sdk/server/streamableHttp.js";
import { z } from "zod";

/**
 * A small MCP server for the tests, built with the SDK's real server: the same tools over stdio
 * (this file run as a child process: `node fake-mcp-server.ts --stdio`) and over streamable HTTP
 * on 127.0.0.1 (`startFakeMcpHttpServer`).
 *
 * - `lookup {query}`: answers Markdown naming the query, with structured content.
 * - `search {query, limit?}`: a second tool, for wildcard policies.
 * - `broken {}`: an `isError` result with the server's message.
 * - `crash {}`: the process writes to stderr and exits in the middle of the call (stdio only).
 * - `wait {seconds}`: answers after that long (timeouts, cancellation).
 * - `add_tool {}`: registers `extra`; the server notifies clients that its tool list changed.
 */
export const fakeMcpServerScript = fileURLToPath(import.meta.url);

export function createFakeMcpServer(): McpServer {
  const server = new McpServer({ name: "fake-docs", version: "1.0.0" });
  server.registerTool(
    "lookup",
    {
      description: "Look a term up in the documentation. Pass the term in `query`.",
      inputSchema: { query: z.string().min(1).describe("The term to look up.") },
    },
    ({ query }) => ({
      content: [{ type: "text", text: `## Lookup: ${query}\n\nThe docs describe ${query}.` }],
      structuredContent: { query, hits: 1 },
    }),
  );
  server.registerTool(
    "search",
    {
      description: "Search the documentation.",
      inputSchema: { query: z.string().min(1), limit: z.number().int().min(1).optional() },
    },
    ({ query }) => ({ content: [{ type: "text", text: `## Search: ${query}\n\n3 pages found.` }] }),
  );
  server.registerTool(
    "broken",
    { description: "A tool whose backend is down.", inputSchema: {} },
    () => ({ content: [{ type: "text", text: "the docs index is offline" }], isError: true }),
  );
  server.registerTool(
    "crash",
    { description: "Crashes the server in the middle of the call.", inputSchema: {} },
    () => {
      process.stderr.write("fatal: the docs index is corrupted\n");
      setTimeout(() => process.exit(3), 20);
      return new Promise<never>(() => undefined);
    },
  );
  server.registerTool(
    "wait",
    { description: "Answers after a while.", inputSchema: { seconds: z.number().min(0) } },
    async ({ seconds }, extra) => {
      await new Promise<void>((resolve) => {
        const timer = setTimeout(resolve, seconds * 1000);
        extra.signal.addEventListener("abort", () => {
          clearTimeout(timer);
          resolve();
        });
      });
      return { content: [{ type: "text", text: `waited ${seconds} s` }] };
    },
  );
  server.registerTool(
    "add_tool",
    {
      description: "Adds the tool `extra` (the server tells clients its list changed).",
      inputSchema: {},
    },
    () => {
      server.registerTool("extra", { description: "Added later.", inputSchema: {} }, () => ({
        content: [{ type: "text", text: "extra answered" }],
      }));
      return { content: [{ type: "text", text: "added" }] };
    },
  );
  return server;
}

export interface FakeMcpHttpServer {
  url: string;
  /** Requests received, for tests that check a header reached the server. */
  readonly headers: Record<string, string | string[] | undefined>[];
  /** Stateful servers: the sessions clients ended (DELETE), in order. */
  readonly endedSessions: string[];
  close(): Promise<void>;
}

/**
 * The fake server over streamable HTTP on 127.0.0.1 at `port` (0: any free port). Stateless by
 * default (a fresh server per request, as the SDK recommends for servers without sessions);
 * `stateful` keeps one server per session (`mcp-session-id`), as servers with sessions do.
 */
export async function startFakeMcpHttpServer(
  options: { port?: number; stateful?: boolean } = {},
): Promise<FakeMcpHttpServer> {
  const headers: Record<string, string | string[] | undefined>[] = [];
  const endedSessions: string[] = [];
  const sessions = new Map<string, StreamableHTTPServerTransport>();
  const http: Server = createServer((request, response) => {
    headers.push(request.headers);
    if (request.url !== "/mcp") {
      response.writeHead(404).end();
      return;
    }
    const sessionHeader = request.headers["mcp-session-id"];
    const existing = typeof sessionHeader === "string" ? sessions.get(sessionHeader) : undefined;
    if (existing !== undefined) {
      void existing.handleRequest(request, response);
      return;
    }
    const transport = new StreamableHTTPServerTransport(
      options.stateful === true
        ? {
            sessionIdGenerator: () => randomUUID(),
            onsessioninitialized: (id) => {
              sessions.set(id, transport);
            },
            onsessionclosed: (id) => {
              sessions.delete(id);
              endedSessions.push(id);
            },
          }
        : { sessionIdGenerator: undefined },
    );
    const server = createFakeMcpServer();
    if (options.stateful !== true) {
      response.on("close", () => {
        void transport.close();
        void server.close();
      });
    }
    void server
      .connect(transport)
      .then(() => transport.handleRequest(request, response))
      .catch(() => {
        if (!response.headersSent) response.writeHead(500).end();
      });
  });
  await new Promise<void>((resolve) => {
    http.listen(options.port ?? 0, "127.0.0.1", resolve);
  });
  const { port: bound } = http.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${bound}/mcp`,
    headers,
    endedSessions,
    close: () =>
      new Promise<void>((resolve) => {
        http.closeAllConnections();
        http.close(() => {
          resolve();
        });
      }),
  };
}

if (process.argv.includes("--stdio")) {
  // Tests that check the worker stops its stdio servers read the process id here.
  const pidFile = process.env["FAKE_MCP_PID_FILE"];
  if (pidFile !== undefined) writeFileSync(pidFile, String(process.pid));
  await createFakeMcpServer().connect(new StdioServerTransport());
}
