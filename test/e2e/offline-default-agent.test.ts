import assert from "node:assert/strict";
import { spawn } from "node:child_process";
import { after, before, describe, it } from "node:test";
import type { TurnResult } from "../../src/session/index.ts";
import { spawnCli } from "../support/cli-process.ts";
import { testServer, uniqueId } from "../support/temporal-env.ts";
import { spawnWorker, type WorkerProcess } from "../support/worker-process.ts";

/**
 * The quick start's agent with no search provider, as a user runs it: a worker process started
 * with no search settings, and the CLI's `send` and `chat` against the shipped template.
 */
describe("the shipped cognitive reasoner on a worker without a search provider", () => {
  const server = testServer();
  const env: Record<string, string> = {
    TEMPORAL_ADDRESS: server.address,
    TEMPORAL_NAMESPACE: server.namespace,
    AGENTDOCK_TASK_QUEUE: uniqueId("offline-queue"),
    // Blank means unset: whatever the test runner's environment holds, no search is configured.
    SEARCH_PROVIDER: "",
    SEARXNG_URL: "",
  };
  let worker: WorkerProcess;

  before(async () => {
    worker = spawnWorker(env);
    await worker.ready;
  });
  after(async () => {
    await worker.kill("SIGTERM");
  });

  /** `send … --json` as a user types it; the TurnResult it prints. */
  async function send(sessionId: string, text: string, first = false): Promise<TurnResult> {
    const args = ["src/cli.ts", "send", sessionId, text, "--json"];
    if (first) args.push("--agent", "cognitive-reasoner");
    const cli = spawnCli(process.execPath, args, { env: { ...process.env, ...env } });
    let stdout = "";
    cli.child.stdout?.on("data", (chunk: Buffer) => (stdout += chunk.toString()));
    const code = await cli.exited(60_000);
    assert.equal(code, 0, cli.output());
    return JSON.parse(stdout) as TurnResult;
  }

  it("answers every kind of request usefully, moving between its steps and never stuck in one", async () => {
    const sessionId = uniqueId("offline-agent");
    const turns: { text: string; tools: string[] }[] = [
      { text: "Research the latest evidence on remote work productivity", tools: [] },
      { text: "Thanks, and what would you conclude?", tools: [] },
      {
        text: "Please evaluate the claim that remote work improves productivity",
        tools: ["critique", "debate", "reflect"],
      },
      { text: "Debate whether offices should close", tools: ["think", "debate", "reflect"] },
      { text: "Find out the sources on hybrid work", tools: [] },
      { text: "Compare remote versus hybrid work", tools: ["think", "compare", "reflect"] },
      { text: "Brainstorm ideas for better meetings", tools: ["think", "brainstorm", "critique"] },
      { text: "How can we solve meeting overload?", tools: ["think", "brainstorm", "compare"] },
    ];
    const results: TurnResult[] = [];
    for (const [index, turn] of turns.entries()) {
      const result = await send(sessionId, turn.text, index === 0);
      results.push(result);
      const where = `turn ${index + 1} ("${turn.text}")`;
      assert.equal(result.error, undefined, where);
      assert.ok(result.text.startsWith(`You asked: "${turn.text}"`), `${where}: ${result.text}`);
      assert.deepEqual(
        result.toolCalls.map((call) => [call.toolName, call.status]),
        turn.tools.map((tool) => [tool, "ok"]),
        where,
      );
      // Every mode hands back to the default step once its sequence is done: never stuck.
      assert.equal(result.state.activeStep, "DefaultMode", where);
      assert.deepEqual(Object.keys(result.state.unavailableTools ?? {}), ["search"], where);
    }
    // The research requests say what is missing and how an operator enables it.
    for (const index of [0, 4]) {
      const text = results[index]?.text ?? "";
      assert.match(text, /Search is unavailable on this worker: not configured/);
      assert.match(text, /SEARCH_PROVIDER=searxng and SEARXNG_URL=/);
      assert.match(text, /ResearchMode was not entered/);
    }
    assert.doesNotMatch(
      results[1]?.text ?? "",
      /search/i,
      "an unrelated follow-up is not about it",
    );
  });

  it("chat prints the skipped step and its reason on one line, then the answer", async () => {
    const sessionId = uniqueId("offline-chat");
    const child = spawn(
      process.execPath,
      ["src/cli.ts", "chat", "cognitive-reasoner", "--session", sessionId],
      { env: { ...process.env, ...env }, stdio: ["pipe", "pipe", "pipe"] },
    );
    let stdout = "";
    child.stdout.on("data", (chunk: Buffer) => (stdout += chunk.toString()));
    child.stdin.end("Research the latest evidence on remote work\n");
    const code = await new Promise<number | null>((resolve, reject) => {
      const timer = setTimeout(() => {
        child.kill("SIGKILL");
        reject(new Error(`chat did not exit within 60 s:\n${stdout}`));
      }, 60_000);
      child.once("exit", (exitCode) => {
        clearTimeout(timer);
        resolve(exitCode);
      });
    });
    assert.equal(code, 0, stdout);
    const order = [
      "⊘ tool search unavailable: not configured",
      "⊘ step ResearchMode skipped: search is unavailable on this worker: not configured",
      "Cognitive Reasoner › You asked",
      "[turn 1 · step DefaultMode",
    ];
    const positions = order.map((marker) => stdout.indexOf(marker));
    assert.ok(
      positions.every((position) => position >= 0),
      `missing a marker in:\n${stdout}`,
    );
    assert.deepEqual(
      positions,
      [...positions].sort((a, b) => a - b),
      "printed in order",
    );
    assert.doesNotMatch(stdout, /⚙ tool search/);
  });
});
