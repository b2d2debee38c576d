import assert from "node:assert/strict";
import { createServer } from "node:http";
import type { AddressInfo } from "node:net";
import { after, before, describe, it } from "node:test";
import { ApplicationFailure } from "@temporalio/common";
import { parseMcpConfig } from "../../../src/mcp/mcp-config.ts";
import { McpTools } from "../../../src/mcp/mcp-tools.ts";
import {
  fakeMcpServerScript,
  startFakeMcpHttpServer,
  type FakeMcpHttpServer,
} from "../../support/fake-mcp-server.ts";

// The worker's MCP tool source against the tests' real MCP server, over stdio (a child process)
// and streamable HTTP (127.0.0.1): what it reports, what a call returns, how failures read.

function toolsFor(servers: Record<string, unknown>): McpTools {
  return new McpTools(parseMcpConfig(JSON.stringify({ mcpServers: servers }), "/tmp/mcp.json", {}));
}

async function failure(promise: Promise<unknown>): Promise<ApplicationFailure> {
  try {
    await promise;
  } catch (error) {
    assert.ok(error instanceof ApplicationFailure, String(error));
    return error;
  }
  assert.fail("expected the call to fail");
}

describe("MCP tools of a stdio server and a streamable HTTP server", () => {
  let http: FakeMcpHttpServer;
  let tools: McpTools;
  before(async () => {
    http = await startFakeMcpHttpServer();
    tools = toolsFor({
      docs: { url: http.url, headers: { Authorization: "Bearer docs-token" } },
      files: { command: process.execPath, args: [fakeMcpServerScript, "--stdio"] },
    });
    const report = await tools.connectAll();
    assert.deepEqual(
      report.map(({ server, state }) => `${server}:${state.status}`),
      ["docs:up", "files:up"],
    );
  });
  after(async () => {
    await tools.close();
    await http.close();
  });

  it("describes the tools the servers list under mcp.<server>.<tool>, category mcp, with the server's schema", async () => {
    const check = await tools.check(["think", "mcp.docs.lookup", "mcp.files.search"]);
    assert.deepEqual(check.unavailable, {});
    assert.deepEqual(
      check.definitions.map(({ name, category }) => `${name}:${category}`),
      ["mcp.docs.lookup:mcp", "mcp.files.search:mcp"],
    );
    const [lookup] = check.definitions;
    assert.ok(lookup !== undefined);
    assert.match(lookup.description, /Look a term up/);
    assert.equal(lookup.inputJsonSchema["type"], "object");
    assert.deepEqual(Object.keys(lookup.inputJsonSchema["properties"] as object), ["query"]);
  });

  it("sends the configured headers to the HTTP server", () => {
    assert.ok(http.headers.some((headers) => headers.authorization === "Bearer docs-token"));
  });

  it("runs a call and returns its text as Markdown content and its structured content", async () => {
    for (const server of ["docs", "files"]) {
      const output = await tools.run(`mcp.${server}.lookup`, { query: "retries" }, undefined);
      assert.deepEqual(output, {
        type: "mcp_result",
        tool: `mcp.${server}.lookup`,
        content: "## Lookup: retries\n\nThe docs describe retries.",
        structuredContent: { query: "retries", hits: 1 },
      });
    }
  });

  it("reports a tool the server does not list, a server nobody configured and a malformed name", async () => {
    const check = await tools.check(["mcp.docs.lokup", "mcp.github.issues", "mcp.docs"]);
    assert.deepEqual(check.definitions, []);
    assert.match(
      check.unavailable["mcp.docs.lokup"] ?? "",
      /not offered by MCP server docs \(it offers mcp\.docs\.lookup, /,
    );
    assert.match(
      check.unavailable["mcp.github.issues"] ?? "",
      /not installed: no MCP server "github" is configured on this worker/,
    );
    assert.match(check.unavailable["mcp.docs"] ?? "", /not an MCP tool name/);
  });

  it("turns an isError result into a non-retryable McpToolFailed failure carrying the server's text", async () => {
    const error = await failure(tools.run("mcp.docs.broken", {}, undefined));
    assert.equal(error.type, "McpToolFailed");
    assert.equal(error.nonRetryable, true);
    assert.equal(error.message, "mcp.docs.broken failed: the docs index is offline");
  });

  it("turns invalid arguments into a failure the model can read", async () => {
    const error = await failure(tools.run("mcp.files.lookup", { query: 7 }, undefined));
    assert.equal(error.type, "McpToolFailed");
    assert.match(error.message, /query/);
  });

  it("fails a call whose server process dies mid-call with the exit and its stderr, then reconnects on the next check", async () => {
    const started = Date.now();
    const error = await failure(tools.run("mcp.files.crash", {}, undefined));
    assert.equal(error.type, "McpServerUnavailable");
    assert.equal(error.nonRetryable, true);
    assert.match(error.message, /^MCP server files unreachable: crash did not finish: /);
    assert.match(error.message, /the docs index is corrupted/);
    assert.ok(Date.now() - started < 5_000);
    const check = await tools.check(["mcp.files.lookup"]);
    assert.deepEqual(check.unavailable, {});
    const output = await tools.run("mcp.files.lookup", { query: "again" }, undefined);
    assert.match((output as { content: string }).content, /Lookup: again/);
  });

  it("abandons a call the server does not answer within its call timeout, saying so", async () => {
    const slow = toolsFor({ docs: { url: http.url, callTimeoutSeconds: 0.5 } });
    try {
      const started = Date.now();
      const error = await failure(slow.run("mcp.docs.wait", { seconds: 10 }, undefined));
      assert.ok(Date.now() - started < 5_000);
      assert.equal(error.type, "McpToolFailed");
      assert.equal(
        error.message,
        "MCP server docs did not answer wait within 0.5 s (its callTimeoutSeconds); the call was abandoned",
      );
    } finally {
      await slow.close();
    }
  });

  it("lists a server's tools again after it says its list changed", async () => {
    assert.match(
      (await tools.check(["mcp.files.extra"])).unavailable["mcp.files.extra"] ?? "",
      /not offered/,
    );
    await tools.run("mcp.files.add_tool", {}, undefined);
    const check = await tools.check(["mcp.files.extra"]);
    assert.deepEqual(check.unavailable, {});
    assert.deepEqual(
      check.definitions.map(({ name }) => name),
      ["mcp.files.extra"],
    );
  });

  it("stops a call when the activity is cancelled", async () => {
    const controller = new AbortController();
    const started = Date.now();
    const call = tools.run("mcp.docs.wait", { seconds: 30 }, controller.signal);
    setTimeout(() => {
      controller.abort(new Error("cancelled"));
    }, 200);
    await assert.rejects(call);
    assert.ok(Date.now() - started < 5_000);
  });
});

describe("MCP servers that are down", () => {
  it("reports a server nothing listens for as unreachable, within its connect timeout", async () => {
    const http = await startFakeMcpHttpServer();
    const url = http.url;
    await http.close();
    const tools = toolsFor({ docs: { url, connectTimeoutSeconds: 2 } });
    try {
      const started = Date.now();
      const check = await tools.check(["mcp.docs.lookup"]);
      assert.ok(Date.now() - started < 3_000);
      assert.match(check.unavailable["mcp.docs.lookup"] ?? "", /^MCP server docs unreachable: /);
      const error = await failure(tools.run("mcp.docs.lookup", { query: "x" }, undefined));
      assert.equal(error.type, "McpServerUnavailable");
      assert.match(error.message, /^MCP server docs unreachable: /);
    } finally {
      await tools.close();
    }
  });

  it("gives up on a server that accepts connections but never answers, within its connect timeout", async () => {
    const silent = createServer(() => undefined);
    await new Promise<void>((resolve) => silent.listen(0, "127.0.0.1", resolve));
    const { port } = silent.address() as AddressInfo;
    const tools = toolsFor({
      hung: { url: `http://127.0.0.1:${port}/mcp`, connectTimeoutSeconds: 1 },
    });
    try {
      const started = Date.now();
      const check = await tools.check(["mcp.hung.lookup"]);
      assert.ok(Date.now() - started < 3_000, `took ${Date.now() - started} ms`);
      assert.equal(
        check.unavailable["mcp.hung.lookup"],
        "MCP server hung unreachable: no answer to connect and list tools within 1 s",
      );
    } finally {
      await tools.close();
      silent.closeAllConnections();
      silent.close();
    }
  });

  it("does not spend a check's time waiting for a hung stdio server to stop", async () => {
    // Never answers and ignores the end of its input: only a signal stops it.
    const tools = toolsFor({
      stuck: {
        command: process.execPath,
        args: ["-e", "process.stdin.resume(); setInterval(() => undefined, 1000)"],
        connectTimeoutSeconds: 1,
      },
    });
    try {
      const started = Date.now();
      const check = await tools.check(["mcp.stuck.x"]);
      const took = Date.now() - started;
      assert.equal(
        check.unavailable["mcp.stuck.x"],
        "MCP server stuck unreachable: no answer to connect and list tools within 1 s",
      );
      assert.ok(took < 2_500, `the check took ${took} ms`);
    } finally {
      await tools.close();
    }
  });

  it("redacts the configured secrets from a down server's reason, which history records", async () => {
    const tools = new McpTools(
      parseMcpConfig(
        JSON.stringify({
          mcpServers: {
            leaky: {
              command: process.execPath,
              args: [
                "-e",
                "process.stderr.write('bad token ' + process.env.TOKEN); process.exit(1)",
              ],
              env: { TOKEN: "${LEAKY_TOKEN}" },
            },
          },
        }),
        "/tmp/mcp.json",
        { LEAKY_TOKEN: "very-secret-token-value" },
      ),
    );
    try {
      const reason = (await tools.check(["mcp.leaky.x"])).unavailable["mcp.leaky.x"] ?? "";
      assert.match(reason, /bad token \[redacted\]/);
      assert.doesNotMatch(reason, /very-secret-token-value/);
    } finally {
      await tools.close();
    }
  });

  it("reports a stdio command that does not exist, and one that exits at start with its stderr", async () => {
    const tools = toolsFor({
      missing: { command: "/nonexistent/mcp-server" },
      exits: {
        command: process.execPath,
        args: ["-e", "process.stderr.write('no API token given'); process.exit(2)"],
      },
    });
    try {
      const check = await tools.check(["mcp.missing.x", "mcp.exits.y"]);
      assert.match(
        check.unavailable["mcp.missing.x"] ?? "",
        /^MCP server missing unreachable: .*ENOENT/,
      );
      assert.match(
        check.unavailable["mcp.exits.y"] ?? "",
        /^MCP server exits unreachable: the server process exited; its stderr ends: no API token given$/,
      );
    } finally {
      await tools.close();
    }
  });

  it("notices an HTTP server that went away and reports it at the next check", async () => {
    const http = await startFakeMcpHttpServer();
    const tools = toolsFor({ docs: { url: http.url } });
    try {
      assert.deepEqual((await tools.check(["mcp.docs.lookup"])).unavailable, {});
      await http.close();
      const check = await tools.check(["mcp.docs.lookup"]);
      assert.match(check.unavailable["mcp.docs.lookup"] ?? "", /^MCP server docs unreachable: /);
    } finally {
      await tools.close();
    }
  });
});

describe("MCP servers that keep sessions", () => {
  it("ends the session on the server when the worker closes its connections", async () => {
    const http = await startFakeMcpHttpServer({ stateful: true });
    const tools = toolsFor({ docs: { url: http.url } });
    try {
      const output = await tools.run("mcp.docs.lookup", { query: "sessions" }, undefined);
      assert.match((output as { content: string }).content, /Lookup: sessions/);
      await tools.close();
      assert.equal(http.endedSessions.length, 1);
    } finally {
      await tools.close();
      await http.close();
    }
  });
});
