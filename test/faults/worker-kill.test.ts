import assert from "node:assert/strict";
import { join } from "node:path";
import { after, before, describe, it } from "node:test";
import { workflowIdFor, type TurnResult } from "../../src/session/index.ts";
import { activityAttempts, pureToolMarkers, scheduledTools } from "../support/history.ts";
import { shippedAgent } from "../support/shipped-agents.ts";
import { createTestEnv, testServer, uniqueId, type TestEnv } from "../support/temporal-env.ts";
import { spawnWorker, workerEnv, type WorkerProcess } from "../support/worker-process.ts";
import {
  countEvents,
  eventsOf,
  isModelActivity,
  onScript,
  pendingActivities,
  scratchDir,
  searchHits,
  startSearchServer,
  waitFor,
  within,
  workflowTaskStarted,
  writeScript,
  type SearchServer,
} from "./fault-support.ts";

// One worker process (A) runs four sessions, each stopped at a different phase of a turn; A is
// killed with SIGKILL once all four are there, and a second worker (B) must finish every turn.
// test/workflow/worker-crash.test.ts covers the slow-tool phase alone; here it shares the crash.

const general = shippedAgent("general");
const planner = shippedAgent("research-planner");

/** Long enough that a model call is still running when the worker dies; removed before B starts. */
const slowMs = 120_000;
/**
 * From B polling to the last reply, for all phases together: a workflow task timeout (10 s) or
 * an activity heartbeat timeout (10-15 s), then the sticky queue's fallback to the normal queue.
 */
const recoveryMs = 90_000;

const thinkCall = {
  toolCalls: [
    {
      toolName: "think",
      input: { topic: "durability", reasoning: "1. Activities retry. 2. Workflows replay." },
    },
  ],
};
const searchCall = { toolCalls: [{ toolName: "search", input: { query: "durable execution" } }] };

interface Phase {
  sessionId: string;
  messageId: string;
  text: string;
  reply: Promise<TurnResult>;
}

describe("a worker killed (SIGKILL) at each phase of a turn", () => {
  let env: TestEnv;
  let search: SearchServer;
  const scratch = scratchDir("worker-kill");
  const workers: WorkerProcess[] = [];
  const phases = new Map<string, Phase>();
  let recoveredBy = 0;

  function phase(name: string): Phase {
    const found = phases.get(name);
    assert.ok(found !== undefined, `phase ${name} was not set up`);
    return found;
  }

  /** Sends `text` and keeps the reply for the phase's test (handled now: no unhandled rejection). */
  function track(name: string, sessionId: string, text: string, reply: Promise<TurnResult>): void {
    reply.catch(() => undefined);
    phases.set(name, { sessionId, messageId: "m1", text, reply });
  }

  before(async () => {
    env = await createTestEnv();
    // The first search request never answers (the tool is mid-call when A dies); later ones do.
    search = await startSearchServer((n) => (n === 1 ? "hang" : { status: 200, body: searchHits }));
    const processEnv = workerEnv(testServer(), env.taskQueue, search.url);
    const scripts = {
      beforeModel: join(scratch.dir, "before-model.json"),
      duringModel: join(scratch.dir, "during-model.json"),
      duringTool: join(scratch.dir, "during-tool.json"),
      afterTool: join(scratch.dir, "after-tool.json"),
    };
    writeScript(scripts.beforeModel, [{ text: "Answered by the second worker." }]);
    writeScript(scripts.duringModel, [{ text: "Answered after the crash.", delayMs: slowMs }]);
    writeScript(scripts.duringTool, [searchCall, { text: "Found one source." }]);
    writeScript(scripts.afterTool, [thinkCall, { text: "Thought it through.", delayMs: slowMs }]);

    const a = spawnWorker(processEnv);
    workers.push(a);
    await a.ready;
    const show = () => `worker A output:\n${a.output()}`;

    // Before the model call: a session whose worker A already holds it in its cache (sticky).
    const beforeModel = uniqueId("kill-before-model");
    await env.sessions.start({
      template: onScript(general, scripts.beforeModel),
      sessionId: beforeModel,
    });
    await waitFor(
      "the first workflow task of the before-model session",
      () => env.sessions.state(beforeModel),
      30_000,
      show,
    );

    const start = (name: string, template: typeof general, text: string): string => {
      const sessionId = uniqueId(`kill-${name}`);
      track(name, sessionId, text, env.sessions.sendWithStart({ template, sessionId }, text, "m1"));
      return sessionId;
    };
    const duringModel = start("duringModel", onScript(general, scripts.duringModel), "Hello");
    start("duringTool", onScript(planner, scripts.duringTool), "Find sources");
    const afterTool = start("afterTool", onScript(general, scripts.afterTool), "Think first");

    const modelRunning = async (sessionId: string) =>
      (await pendingActivities(env.client, workflowIdFor(sessionId))).some(
        (activity) => isModelActivity(activity.type) && activity.started,
      );
    await waitFor(
      "the during-model session's model call running on A",
      async () => ((await modelRunning(duringModel)) ? true : undefined),
      30_000,
      show,
    );
    await waitFor(
      "the during-tool session's search request at the search server",
      () => (search.requests() >= 1 ? true : undefined),
      30_000,
      show,
    );
    await waitFor(
      "the after-tool session's final model call running on A (think finished)",
      async () => {
        const { events } = await env.sessions.events(afterTool, 0);
        const thought = eventsOf(events, "tool_finished").some((event) => event.status === "ok");
        return thought && (await modelRunning(afterTool)) ? true : undefined;
      },
      30_000,
      show,
    );

    // Freeze A (its polls stay open), so the next workflow task is handed to it and never done.
    a.child.kill("SIGSTOP");
    const text = "Are you there?";
    track("beforeModel", beforeModel, text, env.sessions.send(beforeModel, text, "m1"));
    await waitFor(
      "the before-model session's workflow task handed to the frozen worker A",
      async () =>
        (await workflowTaskStarted(env.client, workflowIdFor(beforeModel))) ? true : undefined,
      30_000,
      show,
    );

    // The retried model calls answer at once; the dead worker's calls are never answered.
    writeScript(scripts.duringModel, [{ text: "Answered after the crash." }]);
    writeScript(scripts.afterTool, [thinkCall, { text: "Thought it through." }]);
    await a.kill("SIGKILL");

    const b = spawnWorker(processEnv);
    workers.push(b);
    await b.ready;
    recoveredBy = Date.now() + recoveryMs;
  });

  after(async () => {
    for (const worker of workers) await worker.kill();
    await search.close();
    await env.close();
    scratch.remove();
  });

  /** The reply, once; the turn finished once; the conversation holds the message and answer once. */
  async function answeredOnce(name: string, expectedText: string): Promise<TurnResult> {
    const { sessionId, text, reply } = phase(name);
    const result = await within(
      reply,
      Math.max(0, recoveredBy - Date.now()),
      `the ${name} session's reply (${recoveryMs} ms after the new worker started)`,
    );
    assert.equal(result.error, undefined);
    assert.equal(result.text, expectedText);
    assert.equal(result.turn, 1);
    const { events } = await env.sessions.events(sessionId, 0);
    assert.deepEqual(
      eventsOf(events, "turn_finished").map((event) => [event.messageId, event.text]),
      [["m1", expectedText]],
    );
    const history = await env.sessions.history(sessionId);
    assert.deepEqual(
      history.filter((message) => message.role === "user").map((message) => message.content),
      [text],
    );
    const finalAnswers = history.filter(
      (message) => message.role === "assistant" && JSON.stringify(message).includes(expectedText),
    );
    assert.equal(finalAnswers.length, 1, "the answer is in the conversation once");
    return result;
  }

  it("before the model call: the workflow task times out on the dead worker and a new worker runs the turn once", async () => {
    const { sessionId } = phase("beforeModel");
    await answeredOnce("beforeModel", "Answered by the second worker.");
    const workflowId = workflowIdFor(sessionId);
    const { taskTimedOut, taskFailures } = await countEvents(env.client, workflowId);
    assert.ok(taskTimedOut >= 1, "the task A held timed out in history");
    assert.deepEqual(taskFailures, []);
    // No model activity had started on A: the only model call is a first attempt on B.
    const attempts = await activityAttempts(env.client, workflowId);
    assert.deepEqual(
      attempts.filter((attempt) => isModelActivity(attempt.type)).map((a) => a.attempt),
      [1],
    );
  });

  it("during the model call: the model activity is retried on the new worker and the reply arrives once", async () => {
    const { sessionId } = phase("duringModel");
    await answeredOnce("duringModel", "Answered after the crash.");
    const attempts = await activityAttempts(env.client, workflowIdFor(sessionId));
    const model = attempts.filter((attempt) => isModelActivity(attempt.type));
    assert.equal(model.length, 1, `one model call, got ${JSON.stringify(attempts)}`);
    assert.ok((model[0]?.attempt ?? 0) >= 2, `a retried model call, got ${JSON.stringify(model)}`);
  });

  it("during a tool: the tool activity is retried on the new worker and the turn goes on", async () => {
    const { sessionId } = phase("duringTool");
    const result = await answeredOnce("duringTool", "Found one source.");
    assert.deepEqual(
      result.toolCalls.map((call) => [call.toolName, call.status]),
      [["search", "ok"]],
    );
    assert.ok(search.requests() >= 2, "the search ran again on the new worker");
    const workflowId = workflowIdFor(sessionId);
    assert.deepEqual(await scheduledTools(env.client, workflowId), ["search"]);
    const attempts = await activityAttempts(env.client, workflowId);
    const tools = attempts.filter((attempt) => attempt.type === "runTool");
    assert.ok((tools[0]?.attempt ?? 0) >= 2, `a retried search, got ${JSON.stringify(tools)}`);
  });

  it("after the last tool: only the final model call is retried; the finished tool never runs again", async () => {
    const { sessionId } = phase("afterTool");
    const result = await answeredOnce("afterTool", "Thought it through.");
    assert.deepEqual(
      result.toolCalls.map((call) => [call.toolName, call.status]),
      [["think", "ok"]],
    );
    const workflowId = workflowIdFor(sessionId);
    assert.deepEqual(await scheduledTools(env.client, workflowId), ["think"]);
    const attempts = await activityAttempts(env.client, workflowId);
    // think is pure: a local activity, whose marker the task that scheduled the model call wrote.
    const toolRuns = [
      ...attempts.filter((attempt) => attempt.type === "runTool").map((a) => a.attempt),
      ...(await pureToolMarkers(env.client, workflowId)).map((marker) => marker.attempts),
    ];
    assert.deepEqual(toolRuns, [1]);
    const model = attempts.filter((attempt) => isModelActivity(attempt.type));
    assert.deepEqual(
      model.map((attempt) => attempt.attempt >= 2),
      [false, true],
      `the first model call once, the final one retried; got ${JSON.stringify(model)}`,
    );
  });
});
