import assert from "node:assert/strict";
import { spawn } from "node:child_process";
import { after, before, describe, it } from "node:test";
import { testServer, createTestEnv, uniqueId, type TestEnv } from "../support/temporal-env.ts";

/** `chat` as a user runs it, with `input` piped in; resolves with its exit code and output. */
async function chat(
  args: string[],
  env: Record<string, string>,
  input: string,
): Promise<{ code: number | null; output: string }> {
  const child = spawn(process.execPath, ["src/cli.ts", "chat", ...args], {
    env: { ...process.env, ...env },
    stdio: ["pipe", "pipe", "pipe"],
  });
  let output = "";
  child.stdout.on("data", (chunk: Buffer) => (output += chunk.toString()));
  child.stderr.on("data", (chunk: Buffer) => (output += chunk.toString()));
  child.stdin.end(input);
  const timer = setTimeout(() => child.kill("SIGKILL"), 60_000);
  const code = await new Promise<number | null>((resolve) => child.once("exit", resolve));
  clearTimeout(timer);
  return { code, output };
}

describe("answering an approval inline in the terminal chat", () => {
  let env: TestEnv;
  before(async () => {
    env = await createTestEnv();
    await env.startWorker();
  });
  after(async () => {
    await env.close();
  });

  const cliEnv = (): Record<string, string> => ({
    TEMPORAL_ADDRESS: testServer().address,
    TEMPORAL_NAMESPACE: testServer().namespace,
    AGENTDOCK_TASK_QUEUE: env.taskQueue,
  });

  it("shows the request, asks again on an unclear answer, and takes 'y <reason>' as the approval", async () => {
    const sessionId = uniqueId("chat-approve");
    const run = await chat(
      ["approval-demo", "--dir", "docs/examples", "--session", sessionId],
      cliEnv(),
      "Summarize our launch plan\nmaybe\ny fine by me\n",
    );
    assert.equal(run.code, 0, run.output);
    assert.match(
      run.output,
      /⏸ summarize waits for approval \(t1-call-1-2, denied at .*\): input \{"text"/,
    );
    assert.equal(run.output.split("approve summarize? [y/n").length - 1, 2, run.output);
    assert.match(run.output, /✓ summarize approved by .+ \(CLI\): fine by me/);
    assert.match(run.output, /\[turn 1 · /);
    const { decided } = await env.sessions.approvals(sessionId);
    assert.equal(decided[0]?.decision?.outcome, "approved");
  });

  it("takes 'n <reason>' as a denial, which the model is told", async () => {
    const sessionId = uniqueId("chat-deny");
    const run = await chat(
      ["approval-demo", "--dir", "docs/examples", "--session", sessionId],
      cliEnv(),
      "Summarize our launch plan\nno not before the review\n",
    );
    assert.equal(run.code, 0, run.output);
    assert.match(run.output, /✗ summarize denied \(.+ \(CLI\)\): not before the review/);
    const history = JSON.stringify(await env.sessions.history(sessionId));
    assert.match(history, /denied by .+ \(CLI\) \(not before the review\)/);
  });
});
