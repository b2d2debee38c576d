import assert from "node:assert/strict";
import { after, before, describe, it } from "node:test";
import { spawnCli } from "../support/cli-process.ts";
import { shippedAgent } from "../support/shipped-agents.ts";
import { createTestEnv, testServer, uniqueId, type TestEnv } from "../support/temporal-env.ts";

// The first minute with the CLI: a session id that is wrong or no longer runs gets one line that
// names the problem and the fix, exit 1, and nothing else (no warning, no stack trace).

/** `node src/cli.ts …` against the test server on `taskQueue`; its exit code and all its output. */
async function cli(args: string[], taskQueue: string): Promise<{ code: unknown; output: string }> {
  const { address, namespace } = testServer();
  const run = spawnCli(process.execPath, ["src/cli.ts", ...args], {
    env: {
      PATH: process.env.PATH ?? "",
      HOME: process.env.HOME ?? "",
      TEMPORAL_ADDRESS: address,
      TEMPORAL_NAMESPACE: namespace,
      AGENTDOCK_TASK_QUEUE: taskQueue,
    },
  });
  const code = await run.exited(60_000);
  return { code, output: run.output() };
}

describe("send, state and history with a session that does not run", () => {
  let env: TestEnv;
  before(async () => {
    env = await createTestEnv();
    await env.startWorker();
  });
  after(async () => {
    await env.close();
  });

  it("send to an unknown session prints only that there is no such session and how to start one, even with no worker", async () => {
    const sessionId = uniqueId("nobody");
    const { code, output } = await cli(["send", sessionId, "hello"], uniqueId("no-worker-queue"));
    assert.equal(code, 1, output);
    assert.match(
      output,
      new RegExp(
        `^agentdock-temporal send: no session "${sessionId}" in namespace \\S+ at \\S+ \\(pass --agent ID to start it\\)\\n$`,
      ),
    );
  });

  it("send to an ended session says it has ended, in one line; state and history still show it", async () => {
    const sessionId = uniqueId("ended");
    await env.sessions.sendWithStart(
      { template: shippedAgent("general"), sessionId },
      "hello",
      "m1",
    );
    assert.equal((await env.sessions.end(sessionId, "done")).ended, true);
    const send = await cli(["send", sessionId, "again"], env.taskQueue);
    assert.equal(send.code, 1, send.output);
    assert.match(
      send.output,
      new RegExp(
        `^agentdock-temporal send: session "${sessionId}" has already ended \\(namespace \\S+ at \\S+\\)\\n$`,
      ),
    );
    const state = await cli(["state", sessionId], env.taskQueue);
    assert.equal(state.code, 0, state.output);
    assert.match(state.output, /^status +ended \(done\)$/m);
    const history = await cli(["history", sessionId], env.taskQueue);
    assert.equal(history.code, 0, history.output);
    assert.match(history.output, /^you › hello$/m);
  });

  it("send --agent to an ended session's id says it starts a new session under that id", async () => {
    const sessionId = uniqueId("restarted");
    await env.sessions.sendWithStart(
      { template: shippedAgent("general"), sessionId },
      "hello",
      "m1",
    );
    assert.equal((await env.sessions.end(sessionId)).ended, true);
    const send = await cli(["send", sessionId, "again", "--agent", "general"], env.taskQueue);
    assert.equal(send.code, 0, send.output);
    assert.match(
      send.output,
      new RegExp(
        `^note: session "${sessionId}" has ended; --agent starts a new session with the same id \\(the ended one's conversation is not carried over\\)$`,
        "m",
      ),
    );
    assert.match(send.output, /^\[turn 1 · /m);
  });
});
