import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { setTimeout as sleep } from "node:timers/promises";
import { parseAgentTemplate } from "../../src/agents/index.ts";
import { SessionRequestError, type SessionClient } from "../../src/client/index.ts";
import {
  awaitingApprovalKey,
  sessionStatusKey,
  workflowIdFor,
  type ApprovalRecord,
  type SessionEvent,
} from "../../src/session/index.ts";
import { toolCatalogueEntries } from "../../src/tools/index.ts";
import { recordHistory, scheduledTools } from "../support/history.ts";
import { uniqueId, useSessionEnv } from "../support/temporal-env.ts";

/** An agent whose one tool, think, waits for approval (with `timeout` when given). */
function approvalAgent(timeout?: string) {
  return parseAgentTemplate(
    {
      id: "approval-test",
      name: "Approval test",
      tools: ["think"],
      orchestration: { approve: [timeout === undefined ? "think" : { tool: "think", timeout }] },
    },
    { tools: toolCatalogueEntries },
  );
}

/** Waits until the session has a pending approval and returns it. */
async function pendingApproval(
  sessions: SessionClient,
  sessionId: string,
): Promise<ApprovalRecord> {
  const deadline = Date.now() + 30_000;
  while (Date.now() < deadline) {
    if (await sessions.exists(sessionId)) {
      const { pending } = await sessions.approvals(sessionId);
      if (pending[0] !== undefined) return pending[0];
    }
    await sleep(100);
  }
  return assert.fail(`no approval pending in session ${sessionId} within 30 s`);
}

async function sessionEvents(sessions: SessionClient, sessionId: string): Promise<SessionEvent[]> {
  return (await sessions.events(sessionId, 0)).events.map(({ event }) => event);
}

describe("tool calls that wait for a person's approval", () => {
  const session = useSessionEnv();

  it("waits for approval, shows it in state, details and search attributes, then runs the approved tool", async () => {
    const { env } = session;
    const sessionId = uniqueId("approve");
    const turn = env.sessions.sendWithStart(
      { template: approvalAgent(), sessionId },
      "Weigh the options for our launch",
      "m1",
    );
    const pending = await pendingApproval(env.sessions, sessionId);
    assert.equal(pending.tool, "think");
    assert.equal(pending.approvalId, `t1-${pending.toolCallId}`);
    assert.equal(pending.rule, "agent: think");
    assert.equal(pending.step, null);

    const view = await env.sessions.state(sessionId);
    assert.equal(view.status, "awaiting_approval");
    assert.equal(view.awaitingApproval?.approvalId, pending.approvalId);
    const handle = env.client.workflow.getHandle(workflowIdFor(sessionId));
    const described = await handle.describe();
    assert.equal(described.typedSearchAttributes.get(sessionStatusKey), "awaiting_approval");
    assert.equal(described.typedSearchAttributes.get(awaitingApprovalKey), "think");
    const metadata = await handle.query<{ currentDetails?: string }>(
      "__temporal_workflow_metadata",
    );
    assert.match(
      metadata.currentDetails ?? "",
      /\*\*awaiting approval\*\*: tool think with input \\\{"topic":/,
    );
    assert.deepEqual(await scheduledTools(env.client, workflowIdFor(sessionId)), []);
    // The README's filter finds it (visibility is eventually consistent: poll briefly).
    const query = `SessionStatus="awaiting_approval" AND AwaitingApproval="think" AND WorkflowId="${workflowIdFor(sessionId)}"`;
    let listed = 0;
    for (let tries = 0; tries < 100 && listed === 0; tries++) {
      for await (const _ of env.client.workflow.list({ query })) listed += 1;
      if (listed === 0) await sleep(100);
    }
    assert.equal(listed, 1, `listed by ${query}`);

    const decided = await env.sessions.decideApproval(sessionId, {
      approvalId: pending.approvalId,
      decision: "approve",
      by: "ops@example.test",
      reason: "looks fine",
    });
    assert.equal(decided.decision.outcome, "approved");
    assert.equal(decided.decision.by, "ops@example.test");

    const result = await turn;
    assert.equal(result.error, undefined);
    assert.deepEqual(
      result.toolCalls.map((call) => [call.toolName, call.status]),
      [["think", "ok"]],
    );
    assert.deepEqual(await scheduledTools(env.client, workflowIdFor(sessionId)), ["think"]);
    assert.equal(result.state.status, "running");
    const after = await env.sessions.state(sessionId);
    assert.equal(after.status, "idle");
    assert.equal(after.awaitingApproval, undefined);
    const attributes = (await handle.describe()).typedSearchAttributes;
    assert.equal(attributes.get(sessionStatusKey), "idle");
    assert.equal(attributes.get(awaitingApprovalKey), undefined);

    const events = await sessionEvents(env.sessions, sessionId);
    const decidedEvent = events.find((event) => event.type === "approval_decided");
    assert.ok(decidedEvent?.type === "approval_decided");
    assert.equal(decidedEvent.outcome, "approved");
    assert.equal(decidedEvent.by, "ops@example.test");
    assert.equal(decidedEvent.reason, "looks fine");
    assert.match(decidedEvent.at, /^\d{4}-\d{2}-\d{2}T/);
    const { decided: kept } = await env.sessions.approvals(sessionId);
    assert.equal(kept[0]?.decision?.outcome, "approved");
    await recordHistory(env.client, workflowIdFor(sessionId), "tool-approval-approved");
  });

  it("tells the model a denial as a refusal, with who and why, and never runs the tool", async () => {
    const { env } = session;
    const sessionId = uniqueId("deny");
    const turn = env.sessions.sendWithStart(
      { template: approvalAgent(), sessionId },
      "Weigh the options for our launch",
      "m1",
    );
    const pending = await pendingApproval(env.sessions, sessionId);
    await env.sessions.decideApproval(sessionId, {
      approvalId: pending.approvalId,
      decision: "deny",
      by: "alice",
      reason: "not during the freeze",
    });
    const result = await turn;
    assert.equal(result.error, undefined);
    const [call] = result.toolCalls;
    assert.equal(call?.status, "refused");
    assert.match(
      call.detail ?? "",
      /^refused: the call to think was denied by alice \(not during the freeze\)/,
    );
    assert.deepEqual(await scheduledTools(env.client, workflowIdFor(sessionId)), []);
    // The model received the refusal as the tool's result and answered after it.
    const history = JSON.stringify(await env.sessions.history(sessionId));
    assert.match(history, /denied by alice \(not during the freeze\)/);
    assert.notEqual(result.text, "");
  });

  it("denies the call when nobody answers within the rule's timeout", async () => {
    const { env } = session;
    const sessionId = uniqueId("timeout");
    const result = await env.sessions.sendWithStart(
      { template: approvalAgent("2s"), sessionId },
      "Weigh the options for our launch",
      "m1",
    );
    const [call] = result.toolCalls;
    assert.ok(call !== undefined);
    assert.equal(call.status, "refused");
    assert.match(call.detail ?? "", /nobody approved it in time \(no answer within 2s\)/);
    assert.deepEqual(await scheduledTools(env.client, workflowIdFor(sessionId)), []);
    const { decided } = await env.sessions.approvals(sessionId);
    const [record] = decided;
    assert.ok(record !== undefined);
    assert.equal(record.decision?.outcome, "timed_out");
    assert.equal(record.decision.by, "timeout");
    assert.ok(record.expiresAt !== undefined);
  });

  it("lets the first of two racing answers win; the other fails as already decided", async () => {
    const { env } = session;
    const sessionId = uniqueId("race");
    const turn = env.sessions.sendWithStart(
      { template: approvalAgent(), sessionId },
      "Weigh the options for our launch",
      "m1",
    );
    const pending = await pendingApproval(env.sessions, sessionId);
    const answers = await Promise.allSettled([
      env.sessions.decideApproval(sessionId, {
        approvalId: pending.approvalId,
        decision: "approve",
        by: "alice",
      }),
      env.sessions.decideApproval(sessionId, {
        approvalId: pending.approvalId,
        decision: "deny",
        by: "bob",
      }),
    ]);
    const won = answers.filter((answer) => answer.status === "fulfilled");
    const lost = answers.filter((answer) => answer.status === "rejected");
    assert.equal(won.length, 1);
    assert.equal(lost.length, 1);
    const error: unknown = lost[0]?.reason;
    assert.ok(error instanceof SessionRequestError, String(error));
    assert.equal(error.type, "ApprovalAlreadyDecided");
    assert.match(
      error.message,
      new RegExp(`approval ${pending.approvalId} \\(tool think\\) was already`),
    );
    const winner = won[0]?.value.decision.by;
    const result = await turn;
    assert.equal(result.toolCalls[0]?.status, winner === "alice" ? "ok" : "refused");
  });

  it("refuses an answer to an approval the session does not have, and a malformed one", async () => {
    const { env } = session;
    const sessionId = uniqueId("unknown");
    await env.sessions.sendWithStart({ template: approvalAgent("1s"), sessionId }, "Hello", "m1");
    await assert.rejects(
      env.sessions.decideApproval(sessionId, {
        approvalId: "t9-nope",
        decision: "approve",
        by: "a",
      }),
      (error: unknown) =>
        error instanceof SessionRequestError &&
        error.type === "UnknownApproval" &&
        /this session has no approval t9-nope \(none is pending\)/.test(error.message),
    );
    await assert.rejects(
      env.sessions.decideApproval(sessionId, {
        approvalId: "t1-x",
        decision: "maybe" as "approve",
        by: "",
      }),
      /decision: decision is "approve" or "deny"; by: say who decides/,
    );
  });

  it(
    "keeps decided approvals across continue-as-new: a late answer is still told who decided",
    { timeout: 60_000 },
    async () => {
      const { env } = session;
      const sessionId = uniqueId("approval-can");
      const settings = { continueAsNewAfterEvents: 30 };
      const turn = env.sessions.sendWithStart(
        { template: approvalAgent(), sessionId, settings },
        "Weigh the options for our launch",
        "m1",
      );
      const pending = await pendingApproval(env.sessions, sessionId);
      await env.sessions.decideApproval(sessionId, {
        approvalId: pending.approvalId,
        decision: "approve",
        by: "alice",
      });
      await turn;
      // The second turn's call waits too; answered, the turn ends and the run continues as new.
      const next = env.sessions.send(sessionId, "And once more", "m2");
      const again = await pendingApproval(env.sessions, sessionId);
      assert.notEqual(again.approvalId, pending.approvalId);
      await env.sessions.decideApproval(sessionId, {
        approvalId: again.approvalId,
        decision: "approve",
        by: "alice",
      });
      assert.equal((await next).error, undefined);
      const view = await env.sessions.state(sessionId);
      assert.ok(view.run >= 2, `run ${view.run}: the session continued as new`);
      await assert.rejects(
        env.sessions.decideApproval(sessionId, {
          approvalId: pending.approvalId,
          decision: "deny",
          by: "bob",
        }),
        (error: unknown) =>
          error instanceof SessionRequestError &&
          error.type === "ApprovalAlreadyDecided" &&
          /already approved by alice/.test(error.message),
      );
    },
  );

  it(
    "stopping the turn while a call waits settles it as not run; a later answer is refused",
    { timeout: 60_000 },
    async () => {
      const { env } = session;
      const sessionId = uniqueId("approval-cancel");
      const turn = env.sessions.sendWithStart(
        { template: approvalAgent(), sessionId },
        "Weigh the options for our launch",
        "m1",
      );
      const pending = await pendingApproval(env.sessions, sessionId);
      const cancelled = await env.sessions.cancelTurn(sessionId, { reason: "changed my mind" });
      assert.equal(cancelled.cancelled, true, cancelled.detail);
      const result = await turn;
      assert.equal(result.cancelled, true);
      assert.deepEqual(await scheduledTools(env.client, workflowIdFor(sessionId)), []);
      const { pending: still, decided } = await env.sessions.approvals(sessionId);
      assert.deepEqual(still, []);
      assert.equal(decided[0]?.decision?.outcome, "cancelled");
      assert.equal(decided[0].decision.reason, "changed my mind");
      assert.equal((await env.sessions.state(sessionId)).status, "idle");
      await assert.rejects(
        env.sessions.decideApproval(sessionId, {
          approvalId: pending.approvalId,
          decision: "approve",
          by: "late",
        }),
        /was already cancelled \(changed my mind\) at /,
      );
    },
  );
});
