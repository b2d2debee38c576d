import assert from "node:assert/strict";
import { after, before, describe, it } from "node:test";
import { setTimeout as sleep } from "node:timers/promises";
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { DefaultChatTransport, isToolUIPart, type UIMessage } from "ai";
import { createApiServer, type ApiServer } from "../../src/server/index.ts";
import type { ApprovalsView, SessionView } from "../../src/session/index.ts";
import { ApprovalChat } from "../support/approval-chat.ts";
import { createTestEnv, uniqueId, type TestEnv } from "../support/temporal-env.ts";
import { chatAsUseChat, lastMessage, textOf, userMessage } from "../support/use-chat-client.ts";

const token = "approval-token-1234";
const auth = { authorization: `Bearer ${token}` };

/** The tool parts of a message as [type, state]. */
function toolStates(message: UIMessage | undefined): string[][] {
  return (message?.parts ?? []).flatMap((part) =>
    isToolUIPart(part) ? [[part.type, part.state]] : [],
  );
}

/** The approval id of the message's tool part waiting for an answer. */
function requestedApproval(message: UIMessage | undefined): string {
  for (const part of message?.parts ?? []) {
    if (isToolUIPart(part) && part.state === "approval-requested") return part.approval.id;
  }
  return assert.fail(`no tool part awaits approval in ${JSON.stringify(message?.parts)}`);
}

async function until<T>(what: string, probe: () => T | undefined, timeoutMs = 30_000): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    const value = probe();
    if (value !== undefined) return value;
    await sleep(50);
  }
  return assert.fail(`${what}: not within ${timeoutMs} ms`);
}

describe("tool approval over HTTP, in the AI SDK's approval protocol", () => {
  let env: TestEnv;
  let api: ApiServer;
  let url: string;
  // An agent both of whose tools wait for approval: one turn asks twice.
  const agentsDir = mkdtempSync(join(tmpdir(), "agentdock-approval-twice-"));
  before(async () => {
    mkdirSync(join(agentsDir, "approval-twice"));
    writeFileSync(
      join(agentsDir, "approval-twice", "template.json"),
      JSON.stringify({
        id: "approval-twice",
        name: "Approval twice",
        tools: ["think", "summarize"],
        orchestration: { approve: ["think", "summarize"] },
      }),
    );
    env = await createTestEnv();
    await env.startWorker();
    api = createApiServer({
      client: env.client,
      taskQueue: env.taskQueue,
      agentsDirs: ["agents", "docs/examples", agentsDir],
      token,
      corsOrigins: [],
    });
    ({ url } = await api.listen(0, "127.0.0.1"));
  });
  after(async () => {
    await api.close();
    await env.close();
    rmSync(agentsDir, { recursive: true, force: true });
  });

  const request = (path: string, init: { method?: string; body?: unknown } = {}) =>
    fetch(`${url}${path}`, {
      method: init.method ?? "GET",
      headers: { ...auth, "content-type": "application/json", "x-agentdock-approver": "dana" },
      ...(init.body === undefined ? {} : { body: JSON.stringify(init.body) }),
    });

  it("useChat shows the approval request; addToolApprovalResponse approves it and the same message goes on to the tool's output and the answer", async () => {
    const chatId = uniqueId("use-chat-approve");
    const chat = new ApprovalChat({
      url,
      agentId: "approval-demo",
      chatId,
      headers: { ...auth, "x-agentdock-approver": "erin" },
    });
    await chat.sendMessage({ text: "Summarize our launch plan" });
    const assistant = chat.lastMessage;
    assert.equal(assistant?.role, "assistant");
    assert.deepEqual(toolStates(assistant), [
      ["tool-think", "output-available"],
      ["tool-summarize", "approval-requested"],
    ]);
    const approvalId = requestedApproval(assistant);
    const view = (await (await request(`/api/sessions/${chatId}`)).json()) as SessionView;
    assert.equal(view.status, "awaiting_approval");
    assert.equal(view.awaitingApproval?.approvalId, approvalId);

    await chat.addToolApprovalResponse({
      id: approvalId,
      approved: true,
      reason: "ok by me",
    });
    const finished = await until("the turn answered in the chat", () => {
      const last = chat.lastMessage;
      return chat.current.status === "ready" && toolStates(last).at(-1)?.[1] === "output-available"
        ? last
        : undefined;
    });
    assert.equal(chat.current.error, undefined);
    assert.equal(chat.messages.length, 2, "the answer continued the same assistant message");
    assert.deepEqual(toolStates(finished), [
      ["tool-think", "output-available"],
      ["tool-summarize", "output-available"],
    ]);
    assert.notEqual(textOf(finished), "");
    const approvals = (await (
      await request(`/api/sessions/${chatId}/approvals`)
    ).json()) as ApprovalsView;
    assert.equal(approvals.pending.length, 0);
    assert.deepEqual(
      approvals.decided.map((record) => [
        record.tool,
        record.decision?.outcome,
        record.decision?.by,
        record.decision?.reason,
      ]),
      [["summarize", "approved", "erin", "ok by me"]],
    );
  });

  it("a denial through useChat ends the tool part as denied and the model answers without it", async () => {
    const chatId = uniqueId("use-chat-deny");
    const chat = new ApprovalChat({ url, agentId: "approval-demo", chatId, headers: auth });
    await chat.sendMessage({ text: "Summarize our launch plan" });
    const approvalId = requestedApproval(chat.lastMessage);
    await chat.addToolApprovalResponse({
      id: approvalId,
      approved: false,
      reason: "not yet",
    });
    const finished = await until("the turn answered in the chat", () =>
      chat.current.status === "ready" &&
      toolStates(chat.lastMessage).at(-1)?.[1] === "output-denied"
        ? chat.lastMessage
        : undefined,
    );
    assert.equal(chat.current.error, undefined);
    assert.notEqual(textOf(finished), "");
    const approvals = (await (
      await request(`/api/sessions/${chatId}/approvals`)
    ).json()) as ApprovalsView;
    const [record] = approvals.decided;
    assert.equal(record?.decision?.outcome, "denied");
    assert.equal(record.decision.by, "anonymous (HTTP)");
  });

  it("two racing approvals over HTTP: one wins with 200, the other answers 409", async () => {
    const chatId = uniqueId("http-race");
    const reply = await chatAsUseChat({
      url,
      agentId: "approval-demo",
      chatId,
      messages: [userMessage("Summarize our launch plan")],
      headers: auth,
    });
    assert.deepEqual(toolStates(reply).at(-1), ["tool-summarize", "approval-requested"]);
    const listed = (await (
      await request(`/api/sessions/${chatId}/approvals`)
    ).json()) as ApprovalsView;
    const [pending] = listed.pending;
    assert.ok(pending !== undefined);
    assert.equal(pending.tool, "summarize");
    assert.ok(pending.expiresAt !== undefined, "the demo's rule denies after 3 days");

    const path = `/api/sessions/${chatId}/approvals/${pending.approvalId}`;
    const [a, b] = await Promise.all([
      request(path, { method: "POST", body: { decision: "approve" } }),
      request(path, { method: "POST", body: { decision: "deny", reason: "too late" } }),
    ]);
    const statuses = [a.status, b.status].sort();
    assert.deepEqual(statuses, [200, 409]);
    const loser = a.status === 409 ? a : b;
    const body = (await loser.json()) as { error: { code: string; message: string } };
    assert.equal(body.error.code, "approval_decided");
    assert.match(body.error.message, /was already (approved|denied) by dana/);

    const again = await request(path, { method: "POST", body: { decision: "approve" } });
    assert.equal(again.status, 409);
  });

  it("answers 404 for an unknown approval and 400 for a malformed decision", async () => {
    const chatId = uniqueId("http-bad");
    await chatAsUseChat({
      url,
      agentId: "approval-demo",
      chatId,
      messages: [userMessage("Summarize our launch plan")],
      headers: auth,
    });
    const unknown = await request(`/api/sessions/${chatId}/approvals/t7-nothing`, {
      method: "POST",
      body: { decision: "approve" },
    });
    assert.equal(unknown.status, 404);
    assert.match(
      ((await unknown.json()) as { error: { message: string } }).error.message,
      /no approval t7-nothing \(pending: t1-/,
    );
    const bad = await request(`/api/sessions/${chatId}/approvals/t1-x`, {
      method: "POST",
      body: { decision: "yes" },
    });
    assert.equal(bad.status, 400);
    assert.match(
      ((await bad.json()) as { error: { message: string } }).error.message,
      /decision: decision is "approve" or "deny"/,
    );
    const { pending } = (await (
      await request(`/api/sessions/${chatId}/approvals`)
    ).json()) as ApprovalsView;
    // Leave nothing waiting: deny it.
    const denied = await request(
      `/api/sessions/${chatId}/approvals/${pending[0]?.approvalId ?? ""}`,
      {
        method: "POST",
        body: { decision: "deny" },
      },
    );
    assert.equal(denied.status, 200);
  });

  it("a resumed stream (page reload) goes past a request already answered and stops at the one still waiting", async () => {
    const chatId = uniqueId("resume-twice");
    const first = await chatAsUseChat({
      url,
      agentId: "approval-twice",
      chatId,
      messages: [userMessage("Summarize our launch plan")],
      headers: auth,
    });
    assert.deepEqual(toolStates(first), [["tool-think", "approval-requested"]]);
    const answered = await request(
      `/api/sessions/${chatId}/approvals/${requestedApproval(first)}`,
      {
        method: "POST",
        body: { decision: "approve" },
      },
    );
    assert.equal(answered.status, 200);
    let second: ApprovalsView | undefined;
    for (let tries = 0; tries < 100; tries++) {
      second = (await (await request(`/api/sessions/${chatId}/approvals`)).json()) as ApprovalsView;
      if (second.pending[0]?.tool === "summarize") break;
      await sleep(100);
    }
    assert.equal(second?.pending[0]?.tool, "summarize");

    const transport = new DefaultChatTransport<UIMessage>({
      api: `${url}/api/chat/approval-twice`,
      headers: auth,
    });
    const stream = await transport.reconnectToStream({ chatId });
    assert.ok(stream !== null, "the waiting turn is resumable");
    const resumed = await lastMessage(stream);
    assert.deepEqual(toolStates(resumed), [
      ["tool-think", "output-available"],
      ["tool-summarize", "approval-requested"],
    ]);
    const deny = await request(`/api/sessions/${chatId}/approvals/${requestedApproval(resumed)}`, {
      method: "POST",
      body: { decision: "deny" },
    });
    assert.equal(deny.status, 200);
  });
});
