import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import { after, before, describe, it } from "node:test";
import { setTimeout as sleep } from "node:timers/promises";
import proto from "@temporalio/proto";
import { TestWorkflowEnvironment } from "@temporalio/testing";
import type { Worker } from "@temporalio/worker";
import { parseAgentTemplate } from "../../src/agents/index.ts";
import { SessionClient } from "../../src/client/index.ts";
import { createModelProvider } from "../../src/llm/model-provider.ts";
import type { ApprovalRecord } from "../../src/session/index.ts";
import { sessionSearchAttributes } from "../../src/session/search-attributes.ts";
import { toolCatalogueEntries } from "../../src/tools/index.ts";
import { createSessionWorker } from "../../src/worker/session-worker.ts";
import { sharedBundle, uniqueId } from "../support/temporal-env.ts";
import { testModelAccess } from "../support/test-model-access.ts";
import { ensureTimeSkippingServer } from "../support/time-skipping-server.ts";

const DAY_MS = 86_400_000;
const { IndexedValueType } = proto.temporal.api.enums.v1;

/**
 * The session's search attributes, registered on the test server (it implements adding them,
 * not listing them, so the dev server's ensureSearchAttributes cannot be used).
 */
async function registerSearchAttributes(env: TestWorkflowEnvironment): Promise<void> {
  const types = {
    Keyword: IndexedValueType.INDEXED_VALUE_TYPE_KEYWORD,
    Int: IndexedValueType.INDEXED_VALUE_TYPE_INT,
  } as const;
  await env.connection.operatorService.addSearchAttributes({
    namespace: env.namespace ?? "default",
    searchAttributes: Object.fromEntries(
      Object.entries(sessionSearchAttributes).map(([name, type]) => [name, types[type]]),
    ),
  });
}

const demo = parseAgentTemplate(
  JSON.parse(readFileSync("docs/examples/approval-demo/template.json", "utf8")) as unknown,
  { tools: toolCatalogueEntries },
);

describe("approval waits of days, on Temporal's time-skipping test server", () => {
  let env: TestWorkflowEnvironment;
  let worker: Worker;
  let running: Promise<void>;
  let sessions: SessionClient;
  const taskQueue = uniqueId("time-skipping");

  before(async () => {
    const path = await ensureTimeSkippingServer();
    env = await TestWorkflowEnvironment.createTimeSkipping({
      server: { executable: { type: "existing-path", path } },
    });
    await registerSearchAttributes(env);
    worker = await createSessionWorker({
      connection: env.nativeConnection,
      namespace: env.namespace ?? "default",
      taskQueue,
      modelProvider: createModelProvider({ scripted: {} }, testModelAccess),
      workflowBundle: await sharedBundle(),
    });
    running = worker.run();
    sessions = new SessionClient(env.client, taskQueue);
  });
  after(async () => {
    worker.shutdown();
    await running;
    await env.teardown();
  });

  async function pending(sessionId: string): Promise<ApprovalRecord> {
    const deadline = Date.now() + 60_000;
    while (Date.now() < deadline) {
      const [first] = (await sessions.approvals(sessionId).catch(() => undefined))?.pending ?? [];
      if (first !== undefined) return first;
      await sleep(200);
    }
    return assert.fail("no approval pending within 60 s");
  }

  it("an approval given after 3 simulated days runs the tool (the rule's 3-day timeout has not passed)", async () => {
    const sessionId = uniqueId("days");
    await sessions.start({ template: demo, sessionId });
    await sessions.post(sessionId, "Summarize our launch plan", "m1");
    const request = await pending(sessionId);
    const started = Date.now();
    await env.sleep(3 * DAY_MS - 60_000);
    const decided = await sessions.decideApproval(sessionId, {
      approvalId: request.approvalId,
      decision: "approve",
      by: "night shift",
    });
    const waitedMs = Date.parse(decided.decision.at) - Date.parse(request.requestedAt);
    assert.ok(waitedMs >= 3 * DAY_MS - 60_000, `workflow time waited: ${waitedMs} ms`);
    assert.ok(Date.now() - started < 60_000, "the days passed in simulated time");
    const result = await sessions.send(sessionId, "Summarize our launch plan", "m1");
    assert.deepEqual(
      result.toolCalls.map((call) => [call.toolName, call.status]),
      [
        ["think", "ok"],
        ["summarize", "ok"],
      ],
    );
  });

  it("nobody answering for 3 simulated days denies the call by its timeout", async () => {
    const sessionId = uniqueId("days-timeout");
    await sessions.start({ template: demo, sessionId });
    await sessions.post(sessionId, "Summarize our launch plan", "m1");
    const request = await pending(sessionId);
    await env.sleep(3 * DAY_MS + 60_000);
    const result = await sessions.send(sessionId, "Summarize our launch plan", "m1");
    const summarize = result.toolCalls.find((call) => call.toolName === "summarize");
    assert.equal(summarize?.status, "refused");
    assert.match(summarize.detail ?? "", /nobody approved it in time \(no answer within 3 days\)/);
    const { decided } = await sessions.approvals(sessionId);
    const record = decided.find((entry) => entry.approvalId === request.approvalId);
    assert.equal(record?.decision?.outcome, "timed_out");
    assert.ok(
      Date.parse(record.decision.at) >= Date.parse(record.expiresAt ?? ""),
      `denied at ${record.decision.at}, due ${record.expiresAt ?? "?"}`,
    );
  });
});
