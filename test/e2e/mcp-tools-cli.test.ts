import assert from "node:assert/strict";
import { mkdir, readFile, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { setTimeout as sleep } from "node:timers/promises";
import { after, before, describe, it } from "node:test";
import type { TurnResult } from "../../src/session/index.ts";
import { spawnCli } from "../support/cli-process.ts";
import {
  fakeMcpServerScript,
  startFakeMcpHttpServer,
  type FakeMcpHttpServer,
} from "../support/fake-mcp-server.ts";
import { writePluginFolder } from "../support/plugin-files.ts";
import { testServer, uniqueId } from "../support/temporal-env.ts";
import { spawnWorker, type WorkerProcess } from "../support/worker-process.ts";

// An operator names MCP servers in the file AGENTDOCK_MCP_SERVERS points to: the worker process
// connects at start (reporting a server that is down without failing), `agents` validates
// templates naming their tools, `send` runs them, and the worker stops its stdio servers.

const docsAgent = {
  id: "docs-agent",
  name: "Docs agent",
  llm: { provider: "scripted", model: "auto" },
  tools: ["think", "mcp.docs.lookup", "mcp.files.lookup"],
  orchestration: {
    defaultStep: "Chat",
    steps: [
      {
        name: "Docs",
        conditions: [{ type: "message_regex", value: "\\bdocs\\b", flags: "i" }],
        availableTools: { allowed: ["*mcp*"] },
        sequence: ["mcp.docs.lookup", "mcp.files.lookup"],
        resetSequenceOn: ["user_message"],
        onComplete: "default",
      },
      { name: "Chat", availableTools: { denied: ["mcp.*"] } },
    ],
  },
};

const githubAgent = {
  id: "github-agent",
  name: "GitHub agent",
  llm: { provider: "scripted", model: "auto" },
  tools: ["think", "mcp.github.issues"],
};

describe("MCP tools through the CLI and a worker process", () => {
  const server = testServer();
  const cleanups: (() => Promise<void>)[] = [];
  let docs: FakeMcpHttpServer;
  let folder: string;
  let env: Record<string, string>;
  let worker: WorkerProcess;

  before(async () => {
    docs = await startFakeMcpHttpServer();
    cleanups.push(() => docs.close());
    const dir = await writePluginFolder({});
    cleanups.push(dir.remove);
    folder = dir.dir;
    for (const agent of [docsAgent, githubAgent]) {
      await mkdir(join(folder, "agents", agent.id), { recursive: true });
      await writeFile(join(folder, "agents", agent.id, "template.json"), JSON.stringify(agent));
    }
    const gone = await startFakeMcpHttpServer();
    await gone.close();
    await writeFile(
      join(folder, "mcp.json"),
      JSON.stringify({
        mcpServers: {
          docs: { url: docs.url, headers: { Authorization: "Bearer ${DOCS_TOKEN}" } },
          // A stdio server gets a minimal environment (PATH, HOME, …) plus its own `env`.
          files: {
            command: process.execPath,
            args: [fakeMcpServerScript, "--stdio"],
            env: { FAKE_MCP_PID_FILE: "${FAKE_MCP_PID_FILE}" },
          },
          offline: { url: gone.url, connectTimeoutSeconds: 2 },
          old: { command: "old-server", disabled: true },
        },
      }),
    );
    env = {
      TEMPORAL_ADDRESS: server.address,
      TEMPORAL_NAMESPACE: server.namespace,
      AGENTDOCK_TASK_QUEUE: uniqueId("mcp-queue"),
      AGENTDOCK_MCP_SERVERS: join(folder, "mcp.json"),
      DOCS_TOKEN: "docs-secret-token",
      FAKE_MCP_PID_FILE: join(folder, "files.pid"),
      SEARCH_PROVIDER: "",
      SEARXNG_URL: "",
    };
    worker = spawnWorker(env);
    cleanups.push(() => worker.kill());
    await worker.ready;
  });
  after(async () => {
    for (const cleanup of cleanups.reverse()) await cleanup();
  });

  async function cli(args: string[], extraEnv: Record<string, string> = {}) {
    const run = spawnCli(process.execPath, ["src/cli.ts", ...args], {
      env: { ...process.env, ...env, ...extraEnv },
    });
    let stdout = "";
    run.child.stdout?.on("data", (chunk: Buffer) => (stdout += chunk.toString()));
    const code = await run.exited(60_000);
    return { code, stdout, output: run.output() };
  }

  it("reports each server when the worker starts: its tools, or why it is down, without failing", () => {
    const output = worker.output();
    assert.match(
      output,
      /worker: MCP server docs: 6 tools \(mcp\.docs\.lookup, mcp\.docs\.search, mcp\.docs\.broken, mcp\.docs\.crash, mcp\.docs\.wait, mcp\.docs\.add_tool\)/,
    );
    assert.match(output, /worker: MCP server files: 6 tools \(mcp\.files\.lookup, /);
    assert.match(
      output,
      /worker: MCP server offline unreachable: .*\(its tools are unavailable until it answers; checked again at every turn\)/,
    );
    assert.match(output, /worker: MCP server old: disabled/);
    // The token came from the environment into a header: it reached the server.
    assert.ok(docs.headers.some((headers) => headers.authorization === "Bearer docs-secret-token"));
  });

  it("validates templates naming a configured server's tools with `agents`, and says what a template naming an unconfigured server needs", async () => {
    const { code, stdout, output } = await cli([
      "agents",
      "--dir",
      join(folder, "agents"),
      "--json",
    ]);
    assert.equal(code, 0, output);
    const listed = JSON.parse(stdout) as {
      id: string;
      valid: boolean;
      needs?: { tools: string[] };
    }[];
    const docsListed = listed.find((agent) => agent.id === "docs-agent");
    assert.deepEqual(
      { valid: docsListed?.valid, tools: docsListed?.needs?.tools },
      {
        valid: true,
        tools: [],
      },
    );
    const github = listed.find((agent) => agent.id === "github-agent");
    assert.deepEqual(
      { valid: github?.valid, tools: github?.needs?.tools },
      {
        valid: true,
        tools: ["mcp.github.issues"],
      },
    );
    const table = await cli(["agents", "--dir", join(folder, "agents")]);
    assert.match(
      table.stdout,
      /github-agent: tool mcp\.github\.issues \(not installed: no MCP server github in AGENTDOCK_MCP_SERVERS; never offered\)/,
    );
  });

  it("runs a session's MCP tools over HTTP and stdio in the worker process with `send`", async () => {
    const { code, stdout, output } = await cli([
      "send",
      uniqueId("mcp-cli"),
      "What do the docs say about retries?",
      "--agent",
      "docs-agent",
      "--dir",
      join(folder, "agents"),
      "--json",
    ]);
    assert.equal(code, 0, output);
    const result = JSON.parse(stdout) as TurnResult;
    assert.deepEqual(
      result.toolCalls.slice(0, 2).map(({ toolName, status }) => `${toolName}:${status}`),
      ["mcp.docs.lookup:ok", "mcp.files.lookup:ok"],
    );
    assert.match(result.text, /Lookup: /);
  });

  it("refuses a broken servers file in every command, naming the file, the server, the field and the fix", async () => {
    const broken = join(folder, "broken.json");
    await writeFile(broken, JSON.stringify({ mcpServers: { docs: { url: "ftp://x/mcp" } } }));
    const { code, output } = await cli(["agents", "--dir", join(folder, "agents")], {
      AGENTDOCK_MCP_SERVERS: broken,
    });
    assert.equal(code, 1, output);
    assert.ok(
      output.includes(
        `${broken}: server "docs": field "url" must be an http:// or https:// URL of the server's MCP endpoint`,
      ),
      output,
    );
    const refused = spawnWorker({ ...env, AGENTDOCK_MCP_SERVERS: broken });
    cleanups.push(() => refused.kill());
    await assert.rejects(refused.ready, (error: unknown) => {
      const message = error instanceof Error ? error.message : String(error);
      assert.match(message, /worker exited with 1/);
      assert.ok(message.includes(`${broken}: server "docs": field "url"`), message);
      return true;
    });
  });

  it("stops its stdio servers and exits when the worker is stopped", async () => {
    const pid = Number(await readFile(join(folder, "files.pid"), "utf8"));
    assert.ok(pid > 0);
    const alive = (): boolean => {
      try {
        process.kill(pid, 0);
        return true;
      } catch {
        return false;
      }
    };
    assert.equal(alive(), true);
    // Bounded: a worker whose stdio servers stay open never exits (their pipes keep it alive).
    const exited = await Promise.race([
      worker.kill("SIGTERM").then(() => true),
      sleep(20_000).then(() => false),
    ]);
    assert.equal(exited, true, "the worker did not exit within 20 s of SIGTERM");
    for (let waited = 0; alive() && waited < 10_000; waited += 100) await sleep(100);
    assert.equal(alive(), false);
  });
});
