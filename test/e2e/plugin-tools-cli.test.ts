import assert from "node:assert/strict";
import { mkdir, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { after, before, describe, it } from "node:test";
import type { TurnResult } from "../../src/session/index.ts";
import { spawnCli, startServe } from "../support/cli-process.ts";
import { wordCountPlugin, writePluginFolder, zodImport } from "../support/plugin-files.ts";
import { testServer, uniqueId } from "../support/temporal-env.ts";
import { spawnWorker, type WorkerProcess } from "../support/worker-process.ts";

// An operator installs a plug-in with AGENTDOCK_TOOL_DIRS: the worker process loads it at start
// (or refuses to start on a broken one), `agents` validates templates against it, and a session
// started with `send` runs it.

const counterTemplate = {
  id: "counter",
  name: "Counter",
  llm: { provider: "scripted", model: "auto" },
  tools: ["think", "word_count", "reflect"],
  orchestration: {
    defaultStep: "Chat",
    steps: [
      {
        name: "Counting",
        conditions: [{ type: "message_regex", value: "\\bcount\\b", flags: "i" }],
        availableTools: { allowed: ["*analysis*", "think", "reflect"] },
        sequence: ["think", "word_count", "reflect"],
        resetSequenceOn: ["user_message"],
        onComplete: "default",
      },
      { name: "Chat", availableTools: { denied: ["*analysis*"] } },
    ],
  },
};

describe("plug-in tools through the CLI and a worker process", () => {
  const server = testServer();
  const cleanups: (() => Promise<void>)[] = [];
  let env: Record<string, string>;
  let agentsDir: string;
  let worker: WorkerProcess;

  before(async () => {
    const plugins = await writePluginFolder({ "word-count.ts": wordCountPlugin });
    const agents = await writePluginFolder({});
    cleanups.push(plugins.remove, agents.remove);
    agentsDir = agents.dir;
    await mkdir(join(agentsDir, "counter"));
    await writeFile(join(agentsDir, "counter", "template.json"), JSON.stringify(counterTemplate));
    env = {
      TEMPORAL_ADDRESS: server.address,
      TEMPORAL_NAMESPACE: server.namespace,
      AGENTDOCK_TASK_QUEUE: uniqueId("plugin-queue"),
      AGENTDOCK_TOOL_DIRS: plugins.dir,
      SEARCH_PROVIDER: "",
      SEARXNG_URL: "",
    };
    worker = spawnWorker(env);
    await worker.ready;
  });
  after(async () => {
    await worker.kill("SIGTERM");
    for (const cleanup of cleanups) await cleanup();
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

  it("names the plug-in tools the worker loaded when it starts", () => {
    assert.match(worker.output(), /worker: plug-in tools: word_count \(analysis\)/);
  });

  it("validates a template whose policies match the plug-in by category with `agents --dir`", async () => {
    const { code, stdout, output } = await cli(["agents", "--dir", agentsDir, "--json"]);
    assert.equal(code, 0, output);
    const listed = (JSON.parse(stdout) as { id: string; valid: boolean }[]).find(
      (agent) => agent.id === "counter",
    );
    assert.deepEqual(
      { id: listed?.id, valid: listed?.valid },
      { id: "counter", valid: true },
      output,
    );
  });

  it("serves the template through the HTTP API of `serve` started with the same variable", async () => {
    const serve = await startServe({ ...process.env, ...env, AGENTDOCK_API_TOKEN: "" }, [
      "--dir",
      agentsDir,
    ]);
    cleanups.push(() => serve.process.kill());
    const response = await fetch(`${serve.url}/api/agents`, {
      signal: AbortSignal.timeout(10_000),
    });
    assert.equal(response.status, 200);
    const { agents } = (await response.json()) as {
      agents: { id: string; valid: boolean; error?: string }[];
    };
    const counter = agents.find((agent) => agent.id === "counter");
    assert.equal(counter?.valid, true, counter?.error);
  });

  const sessionId = uniqueId("plugin-cli");

  it("runs the plug-in in a session started with `send`, its output reaching the answer", async () => {
    const { code, stdout, output } = await cli([
      "send",
      sessionId,
      "Please count the words of this short sentence",
      "--agent",
      "counter",
      "--dir",
      agentsDir,
      "--json",
    ]);
    assert.equal(code, 0, output);
    const result = JSON.parse(stdout) as TurnResult;
    assert.deepEqual(
      result.toolCalls.map(({ toolName, status }) => `${toolName}:${status}`),
      ["think:ok", "word_count:ok", "reflect:ok"],
    );
    assert.match(result.text, /\d+ words counted/);
  });

  it("explains in the timeline of `serve` why the default step withheld the plug-in: its category is denied", async () => {
    const serve = await startServe({ ...process.env, ...env, AGENTDOCK_API_TOKEN: "" }, [
      "--dir",
      agentsDir,
    ]);
    cleanups.push(() => serve.process.kill());
    const response = await fetch(`${serve.url}/api/sessions/${sessionId}/timeline`, {
      signal: AbortSignal.timeout(30_000),
    });
    assert.equal(response.status, 200);
    const timeline = (await response.json()) as {
      turns: {
        entries: {
          kind: string;
          activeStep?: string | null;
          withheldTools?: { tool: string; reason: string }[];
        }[];
      }[];
    };
    const inChat = timeline.turns
      .flatMap((turn) => turn.entries)
      .filter((entry) => entry.kind === "model_call" && entry.activeStep === "Chat");
    assert.ok(inChat.length > 0, JSON.stringify(timeline));
    const withheld = inChat.at(-1)?.withheldTools?.find((entry) => entry.tool === "word_count");
    assert.ok(withheld !== undefined, JSON.stringify(inChat));
    assert.match(withheld.reason, /step "Chat" denies it in availableTools.denied/);
  });

  it("refuses to start a worker on a broken plug-in, naming the file, the field and the fix", async () => {
    const broken = await writePluginFolder({
      "broken.ts": `${zodImport}\nexport default { name: "half", category: "analysis", description: "d", inputSchema: z.object({}) };`,
    });
    cleanups.push(broken.remove);
    const refused = spawnWorker({ ...env, AGENTDOCK_TOOL_DIRS: broken.dir });
    // Should it start after all, it must not outlive the test.
    cleanups.push(() => refused.kill());
    await assert.rejects(refused.ready, (error: unknown) => {
      const message = error instanceof Error ? error.message : String(error);
      assert.match(message, /worker exited with 1/);
      assert.ok(message.includes(join(broken.dir, "broken.ts")), message);
      assert.match(message, /field "execute" must be a function \(it is missing\)/);
      assert.doesNotMatch(message, /polling task queue/);
      return true;
    });
  });
});
