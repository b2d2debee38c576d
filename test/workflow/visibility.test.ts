import assert from "node:assert/strict";
import { join } from "node:path";
import { after, before, describe, it } from "node:test";
import type { Client } from "@temporalio/client";
import proto from "@temporalio/proto";
import {
  activeStepKey,
  lastStepKey,
  sessionStatusKey,
  turnCountKey,
  workflowIdFor,
  type TurnResult,
} from "../../src/session/index.ts";
import { onScript, scratchDir, waitFor, within, writeScript } from "../faults/fault-support.ts";
import { evaluationScript } from "../support/evaluation-script.ts";
import { fetchHistory, recordHistory } from "../support/history.ts";
import { listWithCli, readmeFilterExamples, readmeSendExample } from "../support/readme-filters.ts";
import { shippedAgent } from "../support/shipped-agents.ts";
import { spawnWorker, workerEnv, type WorkerProcess } from "../support/worker-process.ts";
import { createTestEnv, testServer, uniqueId, type TestEnv } from "../support/temporal-env.ts";

const reasoner = shippedAgent("cognitive-reasoner");
/** Longer than the tests that need the held turn; it ends when the test kills its worker. */
const holdMs = 300_000;
const EventType = proto.temporal.api.enums.v1.EventType;

interface Visible {
  status: string | undefined;
  activeStep: string | undefined;
  lastStep: string | undefined;
  turns: number | undefined;
}

/** The search attributes as the server holds them for the workflow (describe, not visibility). */
async function attributes(client: Client, sessionId: string): Promise<Visible> {
  const description = await client.workflow.getHandle(workflowIdFor(sessionId)).describe();
  const typed = description.typedSearchAttributes;
  return {
    status: typed.get(sessionStatusKey),
    activeStep: typed.get(activeStepKey),
    lastStep: typed.get(lastStepKey),
    turns: typed.get(turnCountKey),
  };
}

/** Current details as the Web UI reads them: the SDK's built-in metadata query. */
async function currentDetails(client: Client, sessionId: string): Promise<string> {
  const metadata = await client.workflow
    .getHandle(workflowIdFor(sessionId))
    .query<{ currentDetails?: string }>("__temporal_workflow_metadata");
  return metadata.currentDetails ?? "";
}

/** UpsertWorkflowSearchAttributes events per turn, split at each turn's update acceptance. */
async function upsertsPerTurn(client: Client, sessionId: string): Promise<number[]> {
  const { events } = await fetchHistory(client, workflowIdFor(sessionId));
  const perTurn: number[] = [];
  for (const event of events ?? []) {
    if (event.eventType === EventType.EVENT_TYPE_WORKFLOW_EXECUTION_UPDATE_ACCEPTED) {
      perTurn.push(0);
    } else if (
      event.eventType === EventType.EVENT_TYPE_UPSERT_WORKFLOW_SEARCH_ATTRIBUTES &&
      perTurn.length > 0
    ) {
      perTurn[perTurn.length - 1] = (perTurn.at(-1) ?? 0) + 1;
    }
  }
  return perTurn;
}

describe("the Temporal UI's search attributes and current details during and after turns", () => {
  let env: TestEnv;
  let worker: WorkerProcess;
  const scratch = scratchDir("visibility");
  // The README's evaluation turn, held at model call 3: how a session looks while it runs.
  const held = { sessionId: uniqueId("held"), reply: undefined as Promise<TurnResult> | undefined };

  before(async () => {
    env = await createTestEnv();
    // A worker process: killing it ends the held model call, which nothing can interrupt (the
    // AI SDK plugin gives model calls no abort signal), instead of waiting for its hold.
    worker = spawnWorker(workerEnv(testServer(), env.taskQueue, "http://127.0.0.1:9"));
    await worker.ready;
    const script = writeScript(join(scratch.dir, "held.json"), evaluationScript(holdMs));
    held.reply = env.sessions.sendWithStart(
      { template: onScript(reasoner, script), sessionId: held.sessionId },
      "Please evaluate the claim that remote work improves productivity",
      "m1",
    );
    held.reply.catch(() => undefined);
  });

  after(async () => {
    await worker.kill();
    await env.client.workflow
      .getHandle(workflowIdFor(held.sessionId))
      .terminate("the test is over")
      .catch(() => undefined);
    await within(
      held.reply?.then(
        () => undefined,
        () => undefined,
      ) ?? Promise.resolve(),
      15_000,
      "the held turn's end",
    );
    await env.close();
    scratch.remove();
  });

  it("shows a running turn, its step, the model call and the sequence position mid-turn", async () => {
    const { client } = env;
    const details = await waitFor(
      "model call 3 in the held session's details",
      async () => {
        const text = await currentDetails(client, held.sessionId);
        return text.includes("model call 3") ? text : undefined;
      },
      30_000,
    );
    assert.deepEqual(await attributes(client, held.sessionId), {
      status: "running",
      activeStep: "EvaluationMode",
      lastStep: "EvaluationMode",
      turns: 1,
    });
    assert.match(details, /\*\*Status:\*\* \*\*running\*\*.*turn 1/);
    assert.match(details, /\*\*Now:\*\* model call 3 in EvaluationMode/);
    assert.match(details, /\*\*Active step:\*\* EvaluationMode/);
    assert.match(details, /\*\*Sequence:\*\* step 3 of 3/);
    assert.match(details, /\*\*reflect\*\* \(next\)/);
    assert.doesNotMatch(details, /\d\/\d/, "a bare 2/3 renders as a fraction in the UI");
  });

  it("matches every filter example of the README with a session the README's commands create", async () => {
    const { client, sessions, taskQueue } = env;
    const examples = readmeFilterExamples();
    assert.ok(examples.length >= 3, `README filter examples found: ${examples.length}`);
    // The README's `send` example (the shipped agent, the README's message), then the held turn.
    const send = readmeSendExample();
    const sessionId = uniqueId(send.sessionId);
    const result = await sessions.sendWithStart(
      { template: shippedAgent(send.agent), sessionId },
      send.text,
      "m1",
    );
    assert.equal(result.error, undefined);
    await waitFor(
      "the held session mid-turn",
      async () =>
        (await attributes(client, held.sessionId)).status === "running" ? true : undefined,
      30_000,
    );
    const ours = new Set([workflowIdFor(sessionId), workflowIdFor(held.sessionId)]);
    for (const example of examples) {
      // Visibility is eventually consistent: a second or so after the upsert.
      await waitFor(
        `a session the README's commands create, listed by --query '${example}'`,
        async () => {
          const listed = await listWithCli(testServer(), example, taskQueue);
          return listed.some((id) => ours.has(id)) ? true : undefined;
        },
        15_000,
      );
    }
  });

  it("marks a failed turn as failed with its error until the next turn succeeds", async () => {
    const { client, sessions } = env;
    const sessionId = uniqueId("fails");
    // One response: the second model call finds the script exhausted, a non-retryable error.
    const file = join(scratch.dir, "fails.json");
    writeScript(file, evaluationScript(0).slice(0, 1));
    const template = onScript(reasoner, file);
    const failed = await sessions.sendWithStart(
      { template, sessionId },
      "Please evaluate my plan",
      "m1",
    );
    assert.ok(failed.error !== undefined, "the turn fails");
    const afterFailure = await attributes(client, sessionId);
    assert.equal(afterFailure.status, "failed");
    assert.equal(afterFailure.lastStep, "EvaluationMode");
    const failedDetails = await currentDetails(client, sessionId);
    assert.match(failedDetails, /\*\*Status:\*\* \*\*failed\*\*/);
    assert.match(
      failedDetails,
      /\*\*Last failed turn:\*\* turn 1, \d{4}\\-\d\d\\-\d\d \d\d:\d\d:\d\d UTC/,
    );
    assert.match(failedDetails, /^> .*script/m, "the error is quoted");
    assert.equal((await sessions.state(sessionId)).status, "failed");

    // The script is read at every call: give the next turn its answer.
    writeScript(file, [...evaluationScript(0).slice(0, 1), { text: "Recovered." }]);
    const next = await sessions.sendWithStart({ template, sessionId }, "Hello again", "m2");
    assert.equal(next.error, undefined);
    assert.equal((await attributes(client, sessionId)).status, "idle");
    const laterDetails = await currentDetails(client, sessionId);
    assert.match(laterDetails, /\*\*Status:\*\* idle/);
    assert.match(laterDetails, /\*\*Last failed turn:\*\* turn 1,/, "the failure stays on record");
    await recordHistory(client, workflowIdFor(sessionId), "visibility-failed-turn");
  });

  it("keeps the failed status, the failed turn and the last step across continue-as-new", async () => {
    const { client, sessions } = env;
    const sessionId = uniqueId("fails-can");
    const file = writeScript(join(scratch.dir, "fails-can.json"), evaluationScript(0).slice(0, 1));
    // A failed EvaluationMode turn writes more events than this: the next run starts at once.
    const settings = { continueAsNewAfterEvents: 30 };
    const failed = await sessions.sendWithStart(
      { template: onScript(reasoner, file), sessionId, settings },
      "Please evaluate my plan",
      "m1",
    );
    assert.ok(failed.error !== undefined, "the turn fails");
    await waitFor(
      "the session's second run",
      async () => ((await sessions.state(sessionId)).run > 1 ? true : undefined),
      30_000,
    );
    const state = await sessions.state(sessionId);
    assert.equal(state.status, "failed");
    assert.deepEqual(state.lastFailure, failed.state.lastFailure);
    const visible = await attributes(client, sessionId);
    assert.equal(visible.status, "failed");
    assert.equal(visible.lastStep, "EvaluationMode");
    const details = await currentDetails(client, sessionId);
    assert.match(details, /turn 1 · run 2/);
    assert.match(details, /\*\*Last failed turn:\*\* turn 1,/);
  });

  it("costs three search-attribute upserts per EvaluationMode turn: running, back to the default step, idle", async () => {
    const { client, sessions } = env;
    const sessionId = uniqueId("cost");
    for (const [n, text] of ["Please evaluate remote work", "Please evaluate it again"].entries()) {
      const result = await sessions.sendWithStart({ template: reasoner, sessionId }, text, `m${n}`);
      assert.equal(result.error, undefined);
    }
    // The first turn also records the patch marker's own upsert (TemporalChangeVersion).
    assert.deepEqual((await upsertsPerTurn(client, sessionId)).slice(1), [3]);
    await recordHistory(client, workflowIdFor(sessionId), "visibility-evaluation-turns");
  });
});
