import assert from "node:assert/strict";
import { spawn, spawnSync } from "node:child_process";
import { existsSync, rmSync } from "node:fs";
import { delimiter, join } from "node:path";
import { setTimeout as sleep } from "node:timers/promises";
import { after, before, describe, it } from "node:test";
import type { CancelTurnResult } from "../../src/session/index.ts";
import {
  fakeProviderConfig,
  startFakeOpenAIServer,
  type FakeOpenAIServer,
} from "../support/fake-openai-server.ts";
import { shippedAgent } from "../support/shipped-agents.ts";
import { createTestEnv, testServer, uniqueId, type TestEnv } from "../support/temporal-env.ts";
import { slowWriterAgentsDir } from "../support/use-chat-client.ts";

const SLOW = Array.from({ length: 60 }, (_, index) => `word${index + 1}`).join(" ");

interface Run {
  code: number | null;
  stdout: string;
  stderr: string;
}

/** `node src/cli.ts …` as a user runs it, against the test server and this test's task queue. */
async function cli(args: string[], env: Record<string, string>): Promise<Run> {
  const child = spawn(process.execPath, ["src/cli.ts", ...args], {
    env: { ...process.env, ...env },
    stdio: ["ignore", "pipe", "pipe"],
  });
  let stdout = "";
  let stderr = "";
  child.stdout.on("data", (chunk: Buffer) => (stdout += chunk.toString()));
  child.stderr.on("data", (chunk: Buffer) => (stderr += chunk.toString()));
  const timer = setTimeout(() => child.kill("SIGKILL"), 60_000);
  const code = await new Promise<number | null>((resolve) => child.once("exit", resolve));
  clearTimeout(timer);
  return { code, stdout, stderr };
}

const show = (run: Run): string =>
  `exit ${run.code}\nstdout:\n${run.stdout}\nstderr:\n${run.stderr}`;

/** tmux on PATH, or undefined: CI installs it (.ci/run); elsewhere the chat test is skipped. */
const tmux = (process.env["PATH"] ?? "")
  .split(delimiter)
  .map((dir) => join(dir, "tmux"))
  .find((file) => existsSync(file));
const socket = `agentdock-cancel-test-${process.pid}`;
const target = "chat";

function tmuxRun(...args: string[]): string {
  assert.ok(tmux !== undefined);
  const run = spawnSync(tmux, ["-L", socket, ...args], { encoding: "utf8", timeout: 10_000 });
  if (run.status !== 0) throw new Error(`tmux ${args.join(" ")}: ${run.stderr}`);
  return run.stdout;
}

async function waitForScreen(found: (text: string) => boolean, what: string): Promise<string> {
  const deadline = Date.now() + 60_000;
  for (;;) {
    const text = tmuxRun("capture-pane", "-p", "-J", "-S", "-", "-t", target);
    if (found(text)) return text;
    if (Date.now() > deadline) throw new Error(`no ${what} within 60 s; screen:\n${text}`);
    await sleep(100);
  }
}

describe("cancelling a turn from the CLI", () => {
  let env: TestEnv;
  let fake: FakeOpenAIServer;
  let cliEnv: Record<string, string>;
  const agentsDir = slowWriterAgentsDir();
  before(async () => {
    fake = await startFakeOpenAIServer();
    env = await createTestEnv();
    await env.startWorker({ providerConfig: fakeProviderConfig(fake) });
    const server = testServer();
    cliEnv = {
      TEMPORAL_ADDRESS: server.address,
      TEMPORAL_NAMESPACE: server.namespace,
      AGENTDOCK_TASK_QUEUE: env.taskQueue,
      AGENTDOCK_AGENTS_DIR: agentsDir,
    };
  });
  after(async () => {
    if (tmux !== undefined) {
      try {
        tmuxRun("kill-server");
      } catch {
        // No chat was started, or it is gone already.
      }
    }
    await env.close();
    await fake.close();
    rmSync(agentsDir, { recursive: true, force: true });
  });

  it("`cancel` stops the running turn, prints what it had written, and says so when nothing runs", async () => {
    fake.enqueue({ text: SLOW, wordDelayMs: 150 });
    const sessionId = uniqueId("cli-cancel");
    const template = {
      ...shippedAgent("general"),
      llm: { provider: "openai-compatible" as const, model: "fake-model" },
    };
    const turn = env.sessions.sendWithStart({ template, sessionId }, "Write at length", "m1");
    const deadline = Date.now() + 20_000;
    while (Date.now() < deadline) {
      if (await env.sessions.exists(sessionId)) {
        const { events } = await env.sessions.events(sessionId, 0);
        if (events.some(({ event }) => event.type === "model_step")) break;
      }
      await sleep(100);
    }
    await sleep(1_000);

    const cancelled = await cli(["cancel", sessionId, "--reason", "from the CLI"], cliEnv);
    assert.equal(cancelled.code, 0, show(cancelled));
    const result = await turn;
    assert.equal(result.cancelled, true);
    assert.match(
      cancelled.stdout,
      new RegExp(
        `^Cancelled turn 1 \\(message m1\\) in session ${sessionId}: it had written ${result.text.length} character\\(s\\) and made 0 tool call\\(s\\)\\.\\n`,
      ),
    );
    assert.ok(cancelled.stdout.includes(result.text));

    const again = await cli(["cancel", sessionId, "--message", "m1", "--json"], cliEnv);
    assert.equal(again.code, 0, show(again));
    const answer = JSON.parse(again.stdout) as CancelTurnResult;
    assert.equal(answer.cancelled, true);
    assert.equal(answer.result?.text, result.text);

    const idle = await cli(["cancel", sessionId], cliEnv);
    assert.equal(idle.code, 1, show(idle));
    assert.equal(
      idle.stderr.trim(),
      `Nothing cancelled in session ${sessionId}: no turn is running; nothing to cancel.`,
    );

    const usage = await cli(["cancel", sessionId, "--turn", "first"], cliEnv);
    assert.equal(usage.code, 2, show(usage));
    assert.match(usage.stderr, /--turn|turn/);
  });

  it(
    "in `chat`, the first Ctrl-C during a turn stops the turn and the chat goes on; a second one leaves cleanly (exit 0)",
    { skip: tmux === undefined ? "tmux is not on PATH (CI installs it: .ci/run)" : false },
    async () => {
      fake.enqueue({ text: SLOW, wordDelayMs: 150 }, { text: "Short and done." });
      // Before this fix, Ctrl-C mid-turn let the turn run on, then failed the chat with
      // "readline was closed" (exit 1).
      const variables = Object.entries(cliEnv)
        .map(([name, value]) => `${name}=${value}`)
        .join(" ");
      const command = `env ${variables} ${process.execPath} src/cli.ts chat slow-writer`;
      tmuxRun(
        "new-session",
        "-d",
        "-s",
        target,
        "-x",
        "200",
        "-y",
        "50",
        "-c",
        process.cwd(),
        `${command}; echo "chat exited with $?"; sleep 300`,
      );
      await waitForScreen((text) => text.includes("you ›"), "prompt");
      tmuxRun("send-keys", "-t", target, "-l", "Write at length");
      tmuxRun("send-keys", "-t", target, "Enter");
      await waitForScreen((text) => text.includes("word3"), "streamed words");

      tmuxRun("send-keys", "-t", target, "C-c");
      const stopped = await waitForScreen(
        (text) => text.includes("⏹ turn cancelled") && text.trimEnd().endsWith("you ›"),
        "the cancelled turn and a new prompt",
      );
      assert.ok(stopped.includes("stopping the turn"));
      assert.ok(!stopped.includes("word60"), "the reply stopped part-way");
      assert.ok(!stopped.includes("chat exited"));

      tmuxRun("send-keys", "-t", target, "-l", "Shorter please");
      tmuxRun("send-keys", "-t", target, "Enter");
      await waitForScreen(
        (text) => text.includes("Short and done.") && text.trimEnd().endsWith("you ›"),
        "the next turn's reply",
      );

      // Two Ctrl-C during a turn: the first stops it, the second leaves at once, cleanly.
      fake.enqueue({ text: SLOW, wordDelayMs: 150 });
      tmuxRun("send-keys", "-t", target, "-l", "Once more at length");
      tmuxRun("send-keys", "-t", target, "Enter");
      await waitForScreen((text) => text.split("word3").length > 2, "the third turn's words");
      tmuxRun("send-keys", "-t", target, "C-c");
      await waitForScreen((text) => text.split("stopping the turn").length > 2, "the second stop");
      tmuxRun("send-keys", "-t", target, "C-c");
      const left = await waitForScreen(
        (text) => text.includes("chat exited with"),
        "the chat to exit",
      );
      assert.match(left, /chat exited with 0/);
      assert.ok(!left.includes("readline was closed"), left);
    },
  );
});
