import assert from "node:assert/strict";
import { mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { readFileSync } from "node:fs";
import { describe, it } from "node:test";
import { loadMcpConfig, parseMcpConfig } from "../../../src/mcp/mcp-config.ts";
import { McpConfigError } from "../../../src/mcp/mcp-config-error.ts";

// The operator's MCP servers file: the common `mcpServers` shape, checked with every problem
// at once, each naming the file, the server, the field and the fix.

const file = "/etc/agentdock/mcp.json";

function problems(json: unknown, env: Record<string, string> = {}): string[] {
  try {
    parseMcpConfig(typeof json === "string" ? json : JSON.stringify(json), file, env);
  } catch (error) {
    assert.ok(error instanceof McpConfigError, String(error));
    assert.match(error.message, /^MCP servers file \/etc\/agentdock\/mcp\.json has /);
    return error.problems.map((line) => {
      assert.ok(line.startsWith(`${file}: `), line);
      return line.slice(file.length + 2);
    });
  }
  assert.fail("expected the file to be refused");
}

describe("the MCP servers file", () => {
  it("reads stdio and streamable HTTP servers with their defaults, relative folders from the file's", () => {
    const config = parseMcpConfig(
      JSON.stringify({
        mcpServers: {
          github: { command: "npx", args: ["-y", "github-mcp"], env: { TOKEN: "${GH_TOKEN}" } },
          local: { command: "node", args: ["server.js"], cwd: "servers", callTimeoutSeconds: 30 },
          docs: { type: "http", url: "http://127.0.0.1:3000/mcp", headers: { "X-Key": "k" } },
          old: { url: "http://127.0.0.1:3001/mcp", disabled: true },
        },
      }),
      file,
      { GH_TOKEN: "secret-token-value" },
    );
    assert.deepEqual([...config.servers.keys()], ["github", "local", "docs"]);
    assert.deepEqual(config.disabled, ["old"]);
    assert.deepEqual(config.servers.get("github"), {
      transport: "stdio",
      command: "npx",
      args: ["-y", "github-mcp"],
      env: { TOKEN: "secret-token-value" },
      cwd: "/etc/agentdock",
      connectTimeoutMs: 5000,
      callTimeoutMs: 120_000,
    });
    const local = config.servers.get("local");
    assert.ok(local?.transport === "stdio");
    assert.equal(local.cwd, "/etc/agentdock/servers");
    assert.equal(local.callTimeoutMs, 30_000);
    const docs = config.servers.get("docs");
    assert.ok(docs?.transport === "streamable-http");
    assert.equal(docs.url.href, "http://127.0.0.1:3000/mcp");
    // What came from the environment and the headers is redacted from errors.
    assert.deepEqual(config.secrets, ["secret-token-value", "k"]);
  });

  it("names the file, server, field and fix for every problem at once", () => {
    assert.deepEqual(
      problems({
        mcpServers: {
          "my.server": { command: "x" },
          neither: { args: [] },
          both: { command: "x", url: "http://127.0.0.1/mcp" },
          typo: { comand: "x", url: "http://127.0.0.1/mcp" },
          badUrl: { url: "ftp://example/mcp" },
          badArgs: { command: "x", args: "--stdio", headers: { A: "b" } },
          sse: { type: "sse", url: "http://127.0.0.1/sse" },
          slow: { url: "http://127.0.0.1/mcp", connectTimeoutSeconds: 60 },
          unset: { command: "x", env: { TOKEN: "${MISSING_TOKEN}" } },
        },
      }),
      [
        'server "my.server": a server name is 1 to 40 letters, digits, "_" or "-" (its tools are named mcp.<server>.<tool>, so no dots); rename it',
        'server "neither": needs "command" (a server the worker starts and talks to over stdio) or "url" (a streamable HTTP server)',
        'server "both": has both "command" and "url"; keep "command" for a stdio server or "url" for a streamable HTTP server',
        'server "typo": unknown field "comand" — did you mean "command"?; allowed: type, command, args, env, cwd, disabled, url, headers, connectTimeoutSeconds, callTimeoutSeconds',
        'server "badUrl": field "url" must be an http:// or https:// URL of the server\'s MCP endpoint',
        'server "badArgs": field "headers" is for servers with "url"; remove it',
        'server "badArgs": field "args" must be an array of strings',
        'server "sse": field "type": the old HTTP+SSE transport is not supported; serve the streamable HTTP transport and write "type": "http" (or leave "type" out)',
        'server "slow": field "connectTimeoutSeconds" must be at most 7 seconds',
        'server "unset": field "env.TOKEN" uses ${MISSING_TOKEN}, which is not set in this environment; set MISSING_TOKEN or write the value',
      ],
    );
  });

  it("refuses a file that is not JSON or lacks the mcpServers object", () => {
    const [syntax] = problems("{ mcpServers: ");
    assert.match(syntax ?? "", /^is not valid JSON \(.*\); fix the syntax$/);
    assert.deepEqual(problems({ servers: {} }), [
      'needs an "mcpServers" object: { "mcpServers": { "<name>": { "command": "…" } | { "url": "…" } } }',
    ]);
    assert.deepEqual(problems({ mcpServers: {}, extra: 1 }), [
      'unknown top-level field "extra"; the file holds only "mcpServers"',
    ]);
  });

  it("is read from the file AGENTDOCK_MCP_SERVERS names, relative to the working folder", async () => {
    const dir = await mkdtemp(join(tmpdir(), "agentdock-mcp-config-"));
    try {
      await writeFile(
        join(dir, "mcp.json"),
        JSON.stringify({ mcpServers: { a: { command: "x" } } }),
      );
      const config = await loadMcpConfig({ AGENTDOCK_MCP_SERVERS: "mcp.json" }, dir);
      assert.equal(config?.file, join(dir, "mcp.json"));
      assert.equal(await loadMcpConfig({}, dir), undefined);
      assert.equal(await loadMcpConfig({ AGENTDOCK_MCP_SERVERS: " " }, dir), undefined);
      await assert.rejects(loadMcpConfig({ AGENTDOCK_MCP_SERVERS: "absent.json" }, dir), {
        name: "McpConfigError",
        message: new RegExp(
          `absent\\.json: cannot be read \\(no such file\\); point AGENTDOCK_MCP_SERVERS at a JSON file`,
        ),
      });
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });

  it("accepts the README's example as written", () => {
    const readme = readFileSync(new URL("../../../README.md", import.meta.url), "utf8");
    const section = readme.slice(readme.indexOf("#### MCP tools"));
    const example = /```json\n([\s\S]*?)```/.exec(section)?.[1];
    assert.ok(example !== undefined, "the README's MCP section has a JSON example");
    const config = parseMcpConfig(example, file, { GITHUB_TOKEN: "ghp-token", DOCS_TOKEN: "dt" });
    assert.deepEqual([...config.servers.keys()], ["github", "docs"]);
    assert.deepEqual(config.disabled, ["old"]);
  });
});
