import assert from "node:assert/strict";
import { fileURLToPath } from "node:url";
import { after, before, describe, it } from "node:test";
import { setTimeout as sleep } from "node:timers/promises";
import { bundleWorkflowCode, DefaultLogger, NativeConnection, Worker } from "@temporalio/worker";
import { templateVersion } from "../../src/agents/template-version.ts";
import {
  SessionClient,
  SessionRequestError,
  WORKFLOW_TASK_FAILING,
  type SessionRetryReason,
} from "../../src/client/index.ts";
import {
  DEFAULT_TENANT,
  SESSION_WORKFLOW_TYPE,
  workflowIdFor,
  type SessionInput,
} from "../../src/session/index.ts";
import { spawnCli } from "../support/cli-process.ts";
import { shippedAgent } from "../support/shipped-agents.ts";
import {
  createTestEnv,
  sharedBundle,
  testServer,
  uniqueId,
  type TestEnv,
} from "../support/temporal-env.ts";

const general = shippedAgent("general");
const brokenWorkflows = fileURLToPath(
  new URL("../support/broken-session-workflow.ts", import.meta.url),
);

/** A worker running the broken deploy on `taskQueue`; `stop` shuts it down. */
async function startBrokenWorker(taskQueue: string): Promise<{ stop(): Promise<void> }> {
  const connection = await NativeConnection.connect({ address: testServer().address });
  const worker = await Worker.create({
    connection,
    namespace: testServer().namespace,
    taskQueue,
    workflowBundle: await bundleWorkflowCode({
      workflowsPath: brokenWorkflows,
      logger: new DefaultLogger("WARN"),
    }),
  });
  const running = worker.run();
  let stopped: Promise<void> | undefined;
  return {
    stop: () =>
      (stopped ??= (async () => {
        if (worker.getState() === "RUNNING") worker.shutdown();
        await running;
        await connection.close();
      })()),
  };
}

/**
 * Starts a session on a task queue only the broken worker polls and waits until its workflow task
 * is on its third attempt, the one from which the server refuses updates and queries.
 */
async function startFailingSession(env: TestEnv, sessionId: string) {
  const input: SessionInput = {
    sessionId,
    template: general,
    templateVersion: templateVersion(general),
    tenant: DEFAULT_TENANT,
  };
  // A short task timeout: attempts after the second are not reported by the worker, they
  // time out, so the third attempt (the one the server refuses updates at) comes sooner.
  const handle = await env.client.workflow.start(SESSION_WORKFLOW_TYPE, {
    workflowId: workflowIdFor(sessionId),
    taskQueue: env.taskQueue,
    args: [input],
    workflowTaskTimeout: "3 seconds",
  });
  const deadline = Date.now() + 60_000;
  for (;;) {
    const attempt = (await handle.describe()).raw.pendingWorkflowTask?.attempt ?? 0;
    if (attempt >= 3) break;
    assert.ok(Date.now() < deadline, `the workflow task reached attempt ${attempt} only`);
    await sleep(200);
  }
  return handle;
}

describe("a session whose workflow task keeps failing", () => {
  let env: TestEnv;
  let broken: { stop(): Promise<void> } | undefined;
  before(async () => {
    env = await createTestEnv();
    await sharedBundle();
  });
  after(async () => {
    await broken?.stop();
    await env.close();
  });

  it("sendMessage keeps sending while the server refuses it (workflow task in failed state) and the session answers it once when the task heals", async () => {
    const sessionId = uniqueId("failing-task");
    const brokenWorker = await startBrokenWorker(env.taskQueue);
    broken = brokenWorker;
    await startFailingSession(env, sessionId);
    // The fix ships at the first refusal: the broken worker stops and a real one starts.
    const retries: SessionRetryReason[] = [];
    let healing: Promise<unknown> | undefined;
    const sessions = new SessionClient(env.client, env.taskQueue, {
      onRetry: ({ reason }) => {
        retries.push(reason);
        healing ??= brokenWorker.stop().then(() => env.startWorker());
      },
    });
    const result = await sessions.send(sessionId, "hello after the outage", "m1");
    await healing;

    assert.equal(result.messageId, "m1");
    assert.equal(result.error, undefined);
    assert.ok(retries.includes("workflow-task-failing"), `retries: ${retries.join(", ")}`);
    const users = (await sessions.history(sessionId)).filter((message) => message.role === "user");
    assert.deepEqual(
      users.map((message) => message.content),
      ["hello after the outage"],
    );
    assert.equal((await sessions.state(sessionId)).turn, 1);
  });
});

describe("a session whose workflow task does not heal", () => {
  let env: TestEnv;
  let broken: { stop(): Promise<void> } | undefined;
  before(async () => {
    env = await createTestEnv();
    broken = await startBrokenWorker(env.taskQueue);
  });
  after(async () => {
    await broken?.stop();
    await env.close();
  });

  it("sendMessage gives up after failedTaskWaitMs with an error naming the session and what to do, and `state` says in one line why it cannot answer", async () => {
    const sessionId = uniqueId("failing-task-stays");
    const handle = await startFailingSession(env, sessionId);
    const sessions = new SessionClient(env.client, env.taskQueue, {
      roomWait: { stallMs: 30_000, maxWaitMs: 60_000, failedTaskWaitMs: 1_500 },
    });
    await assert.rejects(sessions.send(sessionId, "hello", "m1"), (error: unknown) => {
      assert.ok(error instanceof SessionRequestError, String(error));
      assert.equal(error.type, WORKFLOW_TASK_FAILING);
      assert.match(
        error.message,
        new RegExp(
          `^session "${sessionId}" cannot take requests: its workflow task has been failing for \\d+ s .*check the worker's log`,
        ),
      );
      return true;
    });

    const { address, namespace } = testServer();
    const state = spawnCli(process.execPath, ["src/cli.ts", "state", sessionId], {
      env: {
        PATH: process.env.PATH ?? "",
        HOME: process.env.HOME ?? "",
        TEMPORAL_ADDRESS: address,
        TEMPORAL_NAMESPACE: namespace,
      },
    });
    assert.equal(await state.exited(60_000), 1, state.output());
    assert.match(
      state.output(),
      new RegExp(
        `^agentdock-temporal state: session "${sessionId}" cannot answer now: its workflow task is failing`,
        "m",
      ),
    );
    assert.doesNotMatch(state.output(), /\n\s+at /, "no stack trace");
    await handle.terminate("test over");
  });
});
