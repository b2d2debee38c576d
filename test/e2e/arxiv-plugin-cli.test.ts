import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import { mkdir, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { after, before, describe, it } from "node:test";
import type { TurnResult } from "../../src/session/index.ts";
import { spawnCli } from "../support/cli-process.ts";
import { startFakeArxiv, type FakeArxiv } from "../support/fake-arxiv-server.ts";
import { writePluginFolder } from "../support/plugin-files.ts";
import { testServer, uniqueId } from "../support/temporal-env.ts";
import { spawnWorker, type WorkerProcess } from "../support/worker-process.ts";

// The README's worked example, as written: its template, its commands and the worker line it
// shows, with the shipped plugins folder and a local fake of the arXiv API at ARXIV_API_URL.

const pluginsDir = fileURLToPath(new URL("../../plugins", import.meta.url));

function workedExample(): { template: unknown; workerLine: string; send: RegExpExecArray } {
  const readme = readFileSync(new URL("../../README.md", import.meta.url), "utf8");
  const start = readme.indexOf("#### Worked example: AgentDock's `arxiv_search` as a plug-in");
  assert.ok(start !== -1, "the README has the arxiv_search worked example");
  const section = readme.slice(start, readme.indexOf("\n## ", start));
  const json = /```json\n([\s\S]*?)```/.exec(section)?.[1];
  const workerLine = /npm run worker +# (worker: plug-in tools: .*)$/m.exec(section)?.[1];
  const send =
    /agentdock-temporal send (\S+) "([^"]+)" --agent (\S+) --dir (\S+)$/m.exec(section) ??
    undefined;
  assert.ok(json !== undefined && workerLine !== undefined && send !== undefined, section);
  return { template: JSON.parse(json), workerLine, send };
}

describe("the README's arxiv_search worked example, through a worker process and the CLI", () => {
  const server = testServer();
  const example = workedExample();
  const [, , message = "", agentId = ""] = example.send;
  const cleanups: (() => Promise<void>)[] = [];
  let arxiv: FakeArxiv;
  let agentsDir: string;
  let env: Record<string, string>;
  let worker: WorkerProcess;

  before(async () => {
    arxiv = await startFakeArxiv();
    const agents = await writePluginFolder({});
    cleanups.push(agents.remove, () => arxiv.close());
    agentsDir = agents.dir;
    await mkdir(join(agentsDir, agentId));
    await writeFile(join(agentsDir, agentId, "template.json"), JSON.stringify(example.template));
    env = {
      TEMPORAL_ADDRESS: server.address,
      TEMPORAL_NAMESPACE: server.namespace,
      AGENTDOCK_TASK_QUEUE: uniqueId("arxiv-queue"),
      AGENTDOCK_TOOL_DIRS: pluginsDir,
      ARXIV_API_URL: arxiv.apiUrl,
      SEARCH_PROVIDER: "",
      SEARXNG_URL: "",
    };
    worker = spawnWorker(env);
    cleanups.push(() => worker.kill("SIGTERM"));
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

  it("starts the worker on the shipped plugins folder, printing the line the README shows", () => {
    assert.ok(worker.output().includes(example.workerLine), worker.output());
  });

  it("validates the README's template with `agents --dir`: arxiv_search is no missing tool", async () => {
    const { code, stdout, output } = await cli(["agents", "--dir", agentsDir, "--json"]);
    assert.equal(code, 0, output);
    const listed = (
      JSON.parse(stdout) as { id: string; valid: boolean; needs?: { tools: string[] } }[]
    ).find((agent) => agent.id === agentId);
    assert.deepEqual([listed?.valid, listed?.needs?.tools], [true, []], output);
  });

  it("runs the README's `send`: the step calls arxiv_search against the API and the answer names the papers' heading", async () => {
    const { code, stdout, output } = await cli([
      "send",
      uniqueId("p1"),
      message,
      "--agent",
      agentId,
      "--dir",
      agentsDir,
      "--json",
    ]);
    assert.equal(code, 0, output);
    const result = JSON.parse(stdout) as TurnResult;
    assert.equal(result.error, undefined);
    assert.deepEqual(result.toolCalls[0], {
      toolCallId: result.toolCalls[0]?.toolCallId,
      toolName: "arxiv_search",
      status: "ok",
    });
    assert.ok(result.text.includes(`arXiv: ${message}`), result.text);
    assert.equal(arxiv.requests.at(-1)?.get("search_query"), "all:durable AND all:execution");
  });

  it("refuses a malformed ARXIV_API_URL at start, naming the variable and the fix", async () => {
    const { code, output } = await cli(["agents", "--dir", agentsDir], {
      ARXIV_API_URL: "ftp://127.0.0.1/api/query",
    });
    assert.equal(code, 1, output);
    assert.match(
      output,
      /arxiv-search\.ts: cannot be imported \(ARXIV_API_URL must be an http\(s\) URL, got "ftp:\/\/127\.0\.0\.1\/api\/query"; set it to the arXiv API's query endpoint\)/,
    );
  });

  it("skips the step, naming ARXIV_API_URL, on a worker started without it", async () => {
    const queue = uniqueId("arxiv-unset-queue");
    const unset = spawnWorker({ ...env, AGENTDOCK_TASK_QUEUE: queue, ARXIV_API_URL: "" });
    cleanups.push(() => unset.kill("SIGTERM"));
    await unset.ready;
    const requests = arxiv.requests.length;
    const { code, stdout, output } = await cli(
      ["send", uniqueId("p2"), message, "--agent", agentId, "--dir", agentsDir, "--json"],
      { AGENTDOCK_TASK_QUEUE: queue, ARXIV_API_URL: "" },
    );
    assert.equal(code, 0, output);
    const result = JSON.parse(stdout) as TurnResult;
    assert.ok(!result.toolCalls.some((call) => call.toolName === "arxiv_search"));
    assert.match(result.text, /arxiv_search is unavailable on this worker: not configured/i);
    assert.match(result.text, /set ARXIV_API_URL/);
    assert.equal(arxiv.requests.length, requests);
  });
});
