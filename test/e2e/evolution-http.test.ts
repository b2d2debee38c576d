import assert from "node:assert/strict";
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { after, before, describe, it } from "node:test";
import { validateUIMessages, type UIMessage } from "ai";
import { createApiServer, type ApiServer } from "../../src/server/index.ts";
import type { SessionView } from "../../src/session/index.ts";
import { createTestEnv, uniqueId, type TestEnv } from "../support/temporal-env.ts";
import { chatAsUseChat, textOf, userMessage } from "../support/use-chat-client.ts";

const token = "evolution-token-1234";
const auth = { authorization: `Bearer ${token}` };

interface ErrorBody {
  error: { code: string; message: string };
}

/** What orchestration decided, from a state view. */
function decided(view: SessionView) {
  const { status: _status, sessionId: _id, run: _run, pendingMessages: _pending, ...rest } = view;
  return rest;
}

describe("forking and upgrading sessions over HTTP, useChat included", () => {
  let env: TestEnv;
  let api: ApiServer;
  let url: string;
  const agentsDir = mkdtempSync(join(tmpdir(), "agentdock-evolution-http-"));
  const templateFile = join(agentsDir, "cognitive-reasoner", "template.json");

  before(async () => {
    // A local copy of the reasoner the tests edit, as an operator edits a template in place.
    mkdirSync(join(agentsDir, "cognitive-reasoner"));
    writeFileSync(templateFile, readFileSync("agents/cognitive-reasoner/template.json", "utf8"));
    env = await createTestEnv();
    await env.startWorker();
    api = createApiServer({
      client: env.client,
      taskQueue: env.taskQueue,
      agentsDirs: [agentsDir, "agents"],
      token,
    });
    ({ url } = await api.listen(0, "127.0.0.1"));
  });
  after(async () => {
    await api.close();
    await env.close();
    rmSync(agentsDir, { recursive: true, force: true });
  });

  const get = async <T>(path: string): Promise<T> => {
    const response = await fetch(`${url}${path}`, { headers: auth });
    assert.equal(response.status, 200, await response.clone().text());
    return (await response.json()) as T;
  };
  const post = (path: string, body: unknown) =>
    fetch(`${url}${path}`, {
      method: "POST",
      headers: { ...auth, "content-type": "application/json" },
      body: JSON.stringify(body),
    });
  const chat = (chatId: string, messages: UIMessage[]) =>
    chatAsUseChat({ url, agentId: "cognitive-reasoner", chatId, messages, headers: auth });

  it("POST /fork starts a fork at message N that useChat restores and continues; the parent is untouched", async () => {
    const parent = uniqueId("http-parent");
    const first = userMessage("Please evaluate the claim that remote work improves productivity");
    const reply = await chat(parent, [first]);
    const afterFirst = await get<SessionView>(`/api/sessions/${parent}`);
    const second = userMessage("Compare cats versus dogs");
    await chat(parent, [first, reply, second]);
    const afterSecond = await get<SessionView>(`/api/sessions/${parent}`);

    const fork = uniqueId("http-fork");
    const response = await post(`/api/sessions/${parent}/fork`, { at: 1, as: fork });
    assert.equal(response.status, 201, await response.clone().text());
    const outcome = (await response.json()) as { sessionId: string; forkedAt: number };
    assert.equal(outcome.sessionId, fork);
    assert.equal(outcome.forkedAt, 1);
    assert.deepEqual(decided(await get<SessionView>(`/api/sessions/${fork}`)), decided(afterFirst));

    // The console and useChat restore the fork's conversation: message 1 and its reply only.
    const restored = await get<{ messages: UIMessage[] }>(
      `/api/sessions/${fork}/history?format=ui`,
    );
    const messages = await validateUIMessages<UIMessage>({ messages: restored.messages });
    assert.deepEqual(
      messages.map((message) => [message.role, message.role === "user" ? textOf(message) : ""]),
      [
        ["user", textOf(first)],
        ["assistant", ""],
      ],
    );
    const next = await chat(fork, [...messages, userMessage("Now compare tea versus coffee")]);
    assert.equal((next.metadata as { turn: number }).turn, 2);
    assert.deepEqual(
      next.parts.flatMap((part) => (part.type.startsWith("tool-") ? [part.type] : [])),
      ["tool-think", "tool-compare", "tool-reflect"],
    );
    assert.deepEqual(
      decided(await get<SessionView>(`/api/sessions/${parent}`)),
      decided(afterSecond),
    );
  });

  it("answers a fork out of range, a taken id and a malformed body with the reason", async () => {
    const parent = uniqueId("http-refused");
    await chat(parent, [userMessage("Hello")]);
    const late = await post(`/api/sessions/${parent}/fork`, { at: 3 });
    assert.equal(late.status, 400);
    const lateBody = (await late.json()) as ErrorBody;
    assert.equal(lateBody.error.code, "fork_out_of_range");
    assert.match(lateBody.error.message, /message 3 is out of range: .* messages 1 to 1/);
    const taken = await post(`/api/sessions/${parent}/fork`, { at: 1, as: parent });
    assert.equal(taken.status, 409);
    assert.equal(((await taken.json()) as ErrorBody).error.code, "fork_id_taken");
    const malformed = await post(`/api/sessions/${parent}/fork`, { at: "first" });
    assert.equal(malformed.status, 400);
    assert.match(((await malformed.json()) as ErrorBody).error.message, /^at: /);
    const missing = await post(`/api/sessions/${uniqueId("nobody")}/fork`, { at: 1 });
    assert.equal(missing.status, 404);
  });

  it("POST /upgrade moves a session to its agent's edited template at the next turn boundary", async () => {
    const sessionId = uniqueId("http-upgrade");
    await chat(sessionId, [userMessage("Hello there")]);
    const before = await get<SessionView>(`/api/sessions/${sessionId}`);
    const same = await post(`/api/sessions/${sessionId}/upgrade`, {});
    assert.equal(same.status, 200, await same.clone().text());
    assert.equal(((await same.json()) as { changed: boolean }).changed, false);

    const template = JSON.parse(readFileSync(templateFile, "utf8")) as {
      orchestration: { steps: { name: string; sequence?: unknown; availableTools?: unknown }[] };
    };
    for (const step of template.orchestration.steps) {
      if (step.name !== "EvaluationMode") continue;
      step.sequence = ["critique", "reflect"];
      step.availableTools = { allowed: ["critique", "reflect"] };
    }
    writeFileSync(templateFile, JSON.stringify(template));
    const response = await post(`/api/sessions/${sessionId}/upgrade`, {});
    assert.equal(response.status, 200, await response.clone().text());
    const outcome = (await response.json()) as { from: string; to: string; changed: boolean };
    assert.equal(outcome.changed, true);
    assert.equal(outcome.from, before.templateVersion);
    assert.notEqual(outcome.to, before.templateVersion);
    const agents = await get<{ agents: { id: string; version?: string }[] }>("/api/agents");
    const listed = agents.agents.find((agent) => agent.id === "cognitive-reasoner");
    assert.equal(listed?.version, outcome.to);
    assert.equal(
      (await get<SessionView>(`/api/sessions/${sessionId}`)).templateVersion,
      outcome.to,
    );

    const evaluated = await chat(sessionId, [userMessage("Please evaluate my plan")]);
    assert.deepEqual(
      evaluated.parts.flatMap((part) => (part.type.startsWith("tool-") ? [part.type] : [])),
      ["tool-critique", "tool-reflect"],
    );

    const other = await post(`/api/sessions/${sessionId}/upgrade`, { agentId: "general" });
    assert.equal(other.status, 409);
    assert.equal(((await other.json()) as ErrorBody).error.code, "agent_mismatch");
    const unknown = await post(`/api/sessions/${sessionId}/upgrade`, {
      agentId: "no-such-agent",
      force: true,
    });
    assert.equal(unknown.status, 404);
  });
});
