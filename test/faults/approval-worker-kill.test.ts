import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import { after, before, describe, it } from "node:test";
import { parseAgentTemplate } from "../../src/agents/index.ts";
import { workflowIdFor, type TurnResult } from "../../src/session/index.ts";
import { toolCatalogueEntries } from "../../src/tools/index.ts";
import { spawnCli } from "../support/cli-process.ts";
import { scheduledTools } from "../support/history.ts";
import { createTestEnv, testServer, uniqueId, type TestEnv } from "../support/temporal-env.ts";
import { spawnWorker, workerEnv, type WorkerProcess } from "../support/worker-process.ts";
import { waitFor } from "./fault-support.ts";

const demo = parseAgentTemplate(
  JSON.parse(readFileSync("docs/examples/approval-demo/template.json", "utf8")) as unknown,
  { tools: toolCatalogueEntries },
);

describe("a session waiting for approval while its worker is killed (SIGKILL)", () => {
  let env: TestEnv;
  const workers: WorkerProcess[] = [];
  let processEnv: Record<string, string>;
  const cliEnv = (): NodeJS.ProcessEnv => ({ ...process.env, ...processEnv });
  const cli = async (args: string[]) => {
    const run = spawnCli(process.execPath, ["src/cli.ts", ...args], { env: cliEnv() });
    const code = await run.exited(60_000);
    return { code, output: run.output() };
  };

  before(async () => {
    env = await createTestEnv();
    processEnv = workerEnv(testServer(), env.taskQueue, "http://127.0.0.1:1");
  });
  after(async () => {
    for (const worker of workers) await worker.kill();
    await env.close();
  });

  it("keeps waiting while no worker runs; a new worker shows the request and runs the approved tool and finishes the turn", async (t) => {
    const a = spawnWorker(processEnv);
    workers.push(a);
    await a.ready;
    const sessionId = uniqueId("approval-kill");
    const reply: Promise<TurnResult> = env.sessions.sendWithStart(
      { template: demo, sessionId },
      "Summarize our launch plan",
      "m1",
    );
    reply.catch(() => undefined);
    const pending = await waitFor(
      "the summarize call waiting for approval on worker A",
      async () => (await env.sessions.approvals(sessionId).catch(() => undefined))?.pending[0],
      30_000,
      () => a.output(),
    );
    assert.equal(pending.tool, "summarize");
    const killedAt = new Date().toISOString();
    await a.kill("SIGKILL");

    // A new worker takes the session over from its history: the call is still waiting.
    const b = spawnWorker(processEnv);
    workers.push(b);
    await b.ready;
    const waiting = await cli(["approvals", sessionId]);
    assert.equal(waiting.code, 0, waiting.output);
    assert.match(waiting.output, new RegExp(`${pending.approvalId}  summarize with input \\{`));
    assert.match(waiting.output, /denied at .* if nobody answers/);
    const state = await cli(["state", sessionId]);
    assert.match(state.output, /status\s+awaiting_approval/);

    const approved = await cli([
      "approve",
      sessionId,
      "--as",
      "integrator",
      "--reason",
      "approved after the worker restart",
    ]);
    assert.equal(approved.code, 0, approved.output);
    assert.match(
      approved.output,
      new RegExp(
        `Approved summarize \\(${pending.approvalId}\\) in session ${sessionId} as integrator: approved after the worker restart\\.`,
      ),
    );
    const result = await reply;
    assert.equal(result.error, undefined);
    assert.deepEqual(
      result.toolCalls.map((call) => [call.toolName, call.status]),
      [
        ["think", "ok"],
        ["summarize", "ok"],
      ],
    );
    assert.deepEqual(await scheduledTools(env.client, workflowIdFor(sessionId)), [
      "think",
      "summarize",
    ]);
    const again = await cli(["deny", sessionId, pending.approvalId]);
    assert.equal(again.code, 1);
    assert.match(again.output, /was already approved by integrator/);
    const { decided } = await env.sessions.approvals(sessionId);
    const record = decided[0];
    assert.ok(record?.decision !== undefined);
    // What the integrator quotes: one session that waited for approval across a worker restart.
    t.diagnostic(
      `session ${sessionId}: ${record.tool} requested ${record.requestedAt}; worker A (pid ${a.child.pid}) SIGKILLed ${killedAt}; worker B (pid ${b.child.pid}) started; ${record.decision.outcome} by ${record.decision.by} at ${record.decision.at}; turn ${result.turn} answered: "${result.text.slice(0, 80)}"`,
    );
  });
});
