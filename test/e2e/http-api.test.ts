import assert from "node:assert/strict";
import { after, before, describe, it } from "node:test";
import { setTimeout as sleep } from "node:timers/promises";
import type { UIMessage } from "ai";
import type { LiveItem } from "../../src/client/index.ts";
import { createApiServer, type ApiServer } from "../../src/server/index.ts";
import type { SessionView } from "../../src/session/index.ts";
import {
  fakeProviderConfig,
  startFakeOpenAIServer,
  type FakeOpenAIServer,
} from "../support/fake-openai-server.ts";
import { readSse } from "../support/sse-client.ts";
import { createTestEnv, uniqueId, type TestEnv } from "../support/temporal-env.ts";
import {
  chatAsUseChat,
  slowWriterAgentsDir,
  textOf,
  userMessage,
} from "../support/use-chat-client.ts";

const token = "test-token-1234";
const auth = { authorization: `Bearer ${token}` };

/** One chat request exactly as `useChat` makes it, read with the AI SDK's own stream parsing. */
function chat(url: string, agentId: string, chatId: string, messages: UIMessage[]) {
  return chatAsUseChat({ url, agentId, chatId, messages, headers: auth });
}

describe("the HTTP API on 127.0.0.1", () => {
  let env: TestEnv;
  let fake: FakeOpenAIServer;
  let api: ApiServer;
  let url: string;
  before(async () => {
    fake = await startFakeOpenAIServer();
    env = await createTestEnv();
    await env.startWorker({ providerConfig: fakeProviderConfig(fake) });
    // A local agent on the OpenAI-compatible provider, whose replies the fake server paces.
    const localAgents = slowWriterAgentsDir();
    api = createApiServer({
      client: env.client,
      taskQueue: env.taskQueue,
      agentsDirs: ["agents", localAgents],
      token,
      corsOrigins: ["http://app.example"],
    });
    ({ url } = await api.listen(0, "127.0.0.1"));
  });
  after(async () => {
    await api.close();
    await env.close();
    await fake.close();
  });

  const get = (path: string, headers: Record<string, string> = auth) =>
    fetch(`${url}${path}`, { headers });
  const post = (path: string, body: string, headers: Record<string, string> = {}) =>
    fetch(`${url}${path}`, {
      method: "POST",
      headers: { ...auth, "content-type": "application/json", ...headers },
      body,
    });

  it("streams a whole turn to a useChat client: tools with outputs, steps, text, metadata", async () => {
    const chatId = uniqueId("http-chat");
    const first = userMessage("Please evaluate the claim that remote work improves productivity");
    const reply = await chat(url, "cognitive-reasoner", chatId, [first]);

    const tools = reply.parts.flatMap((part) =>
      part.type.startsWith("tool-") && "state" in part ? [[part.type, part.state]] : [],
    );
    assert.deepEqual(tools, [
      ["tool-critique", "output-available"],
      ["tool-debate", "output-available"],
      ["tool-reflect", "output-available"],
    ]);
    assert.ok(reply.parts.some((part) => part.type === "data-orchestration"));
    assert.equal(reply.parts.filter((part) => part.type === "step-start").length, 4);
    const state = (await (await get(`/api/sessions/${chatId}`)).json()) as SessionView;
    assert.equal(state.turn, 1);
    const history = (await (await get(`/api/sessions/${chatId}/history`)).json()) as {
      messages: { role: string; content: unknown }[];
    };
    const lastAssistant = history.messages.filter((message) => message.role === "assistant").at(-1);
    assert.ok(textOf(reply).length > 0);
    const storedText = (lastAssistant?.content as { type: string; text?: string }[])
      .flatMap((part) => (part.type === "text" && part.text !== undefined ? [part.text] : []))
      .join("");
    assert.equal(textOf(reply), storedText, "the streamed text is the reply the session kept");
    assert.deepEqual(reply.metadata, {
      sessionId: chatId,
      turn: 1,
      activeStep: state.activeStep,
      totalTokens: state.cumulativeTokenUsage.totalTokens,
    });

    // The same chat id continues the same durable session.
    const second = await chat(url, "cognitive-reasoner", chatId, [
      first,
      reply,
      userMessage("Thanks, and now just say hello"),
    ]);
    assert.equal((second.metadata as { turn: number }).turn, 2);
  });

  /** The SSE events of a session until `stop` says so, and the id of the last one read. */
  async function readEvents(
    sessionId: string,
    stop: (item: LiveItem | { type: "end" }) => boolean,
    lastEventId?: string,
  ): Promise<{ items: { id: string | undefined; item: LiveItem }[]; lastId: string | undefined }> {
    const controller = new AbortController();
    const response = await fetch(`${url}/api/sessions/${sessionId}/events`, {
      headers: { ...auth, ...(lastEventId === undefined ? {} : { "last-event-id": lastEventId }) },
      signal: controller.signal,
    });
    assert.equal(response.status, 200);
    assert.match(response.headers.get("content-type") ?? "", /text\/event-stream/);
    assert.ok(response.body !== null);
    const items: { id: string | undefined; item: LiveItem }[] = [];
    let lastId: string | undefined;
    try {
      for await (const event of readSse(response.body)) {
        const item = JSON.parse(event.data) as LiveItem | { type: "end" };
        if (item.type !== "end") items.push({ id: event.id, item });
        lastId = event.id ?? lastId;
        if (stop(item)) break;
      }
    } finally {
      // Dropping the connection mid-turn, as a flaky network would.
      controller.abort();
    }
    return { items, lastId };
  }

  it("serves a session's events as SSE and resumes after a dropped connection with nothing lost or repeated", async () => {
    const words = "alpha beta gamma delta epsilon zeta eta theta iota kappa";
    fake.enqueue({ text: words, wordDelayMs: 120 });
    const chatId = uniqueId("http-sse");
    const turn = post(
      "/api/chat/slow-writer",
      JSON.stringify({ id: chatId, messages: [userMessage("Count in Greek")] }),
    );
    const response = await turn;
    assert.equal(response.status, 200);

    let deltas = 0;
    const first = await readEvents(chatId, (item) => item.type === "text_delta" && ++deltas === 3);
    assert.ok(first.lastId !== undefined);
    const rest = await readEvents(
      chatId,
      (item) => item.type === "session" && item.event.type === "turn_finished",
      first.lastId,
    );
    await response.text();
    const ids = [...first.items, ...rest.items].map((entry) => Number(entry.id));
    assert.deepEqual(
      ids,
      [...new Set(ids)].sort((a, b) => a - b),
      "ids strictly increase",
    );
    const text = [...first.items, ...rest.items]
      .flatMap(({ item }) => (item.type === "text_delta" ? [item.delta] : []))
      .join("");
    assert.equal(text, words);
  });

  it("requires the bearer token on every API route, and not on /healthz", async () => {
    const none = await get("/api/agents", {});
    assert.equal(none.status, 401);
    assert.match(none.headers.get("www-authenticate") ?? "", /^Bearer/);
    assert.deepEqual(
      ((await none.json()) as { error: { code: string } }).error.code,
      "unauthorized",
    );
    assert.equal((await get("/api/agents", { authorization: "Bearer wrong" })).status, 401);
    assert.equal((await get("/api/sessions/x/events", {})).status, 401);
    const chat = await post("/api/chat/general", "{}", { authorization: "Bearer wrong" });
    assert.equal(chat.status, 401);
    assert.equal((await get("/api/agents")).status, 200);
    // A browser page on an allowed origin gets its preflight answered without a token.
    const preflight = await fetch(`${url}/api/chat/general`, {
      method: "OPTIONS",
      headers: { origin: "http://app.example", "access-control-request-method": "POST" },
    });
    assert.equal(preflight.status, 204);
    assert.equal(preflight.headers.get("access-control-allow-origin"), "http://app.example");
    assert.match(preflight.headers.get("access-control-allow-headers") ?? "", /authorization/);
    const otherOrigin = await get("/api/agents", { ...auth, origin: "http://elsewhere.example" });
    assert.equal(otherOrigin.headers.get("access-control-allow-origin"), null);
    const health = await get("/healthz", {});
    assert.equal(health.status, 200);
    assert.deepEqual(await health.json(), { ok: true, temporal: "reachable" });
  });

  it("answers 413 to every oversized body, request after request on kept-alive connections", async () => {
    for (let round = 0; round < 20; round++) {
      const response = await post("/api/chat/general", "x".repeat(2 * 1024 * 1024));
      assert.equal(response.status, 413, `round ${round}`);
      assert.equal(
        ((await response.json()) as { error: { code: string } }).error.code,
        "body_too_large",
      );
    }
  });

  it("answers bad requests with the right status and message, and starts nothing", async () => {
    const chatId = uniqueId("http-bad");
    const body = (text: string) => JSON.stringify({ id: chatId, messages: [userMessage(text)] });
    const cases: [string, Promise<Response>, number, string, RegExp][] = [
      [
        "unknown agent",
        post("/api/chat/no-such-agent", body("hi")),
        404,
        "unknown_agent",
        /no-such-agent/,
      ],
      [
        "malformed JSON",
        post("/api/chat/general", "{not json"),
        400,
        "malformed_json",
        /not valid JSON/,
      ],
      [
        "no messages",
        post("/api/chat/general", JSON.stringify({ id: chatId, messages: [] })),
        400,
        "invalid_body",
        /messages: send at least one message/,
      ],
      [
        "bad chat id",
        post("/api/chat/general", JSON.stringify({ id: "bad id!", messages: [userMessage("hi")] })),
        400,
        "invalid_body",
        /^id: a session id/,
      ],
      [
        "oversized message",
        post("/api/chat/general", body("x".repeat(32_001))),
        413,
        "message_too_long",
        /32000/,
      ],
      ["empty message", post("/api/chat/general", body("   ")), 400, "empty_message", /no text/],
      [
        "not JSON content type",
        post("/api/chat/general", body("hi"), { "content-type": "text/plain" }),
        415,
        "unsupported_media_type",
        /application\/json/,
      ],
      [
        "unknown session state",
        get(`/api/sessions/${chatId}`),
        404,
        "unknown_session",
        new RegExp(chatId),
      ],
      [
        "unknown session history",
        get(`/api/sessions/${chatId}/history`),
        404,
        "unknown_session",
        /no session/,
      ],
      [
        "unknown session events",
        get(`/api/sessions/${chatId}/events`),
        404,
        "unknown_session",
        /no session/,
      ],
      [
        "end an unknown session",
        fetch(`${url}/api/sessions/${chatId}`, { method: "DELETE", headers: auth }),
        404,
        "unknown_session",
        /no session/,
      ],
      ["unknown route", get("/api/nothing"), 404, "not_found", /no route/],
      [
        "wrong method",
        fetch(`${url}/api/agents`, { method: "PUT", headers: auth }),
        405,
        "method_not_allowed",
        /PUT/,
      ],
    ];
    for (const [name, request, status, code, message] of cases) {
      const response = await request;
      const answer = (await response.json()) as { error: { code: string; message: string } };
      assert.equal(response.status, status, `${name}: ${JSON.stringify(answer)}`);
      assert.equal(answer.error.code, code, name);
      assert.match(answer.error.message, message, name);
    }
    // Nothing was started by any of them.
    assert.equal(await env.sessions.isRunning(chatId), false);
    assert.equal((await get(`/api/sessions/${chatId}`)).status, 404);
  });

  it("lists agents and sessions, and ends a session so its chat is refused afterwards", async () => {
    const agents = (await (await get("/api/agents")).json()) as {
      agents: { id: string; valid: boolean }[];
    };
    assert.ok(agents.agents.some((agent) => agent.id === "cognitive-reasoner" && agent.valid));

    const chatId = uniqueId("http-end");
    await chat(url, "general", chatId, [userMessage("Hello")]);
    // Visibility is eventually consistent: the new session shows up within a few seconds.
    let listed = false;
    for (let attempt = 0; attempt < 50 && !listed; attempt++) {
      const { sessions } = (await (await get("/api/sessions?agent=general&limit=100")).json()) as {
        sessions: { sessionId: string; agentId: string }[];
      };
      listed = sessions.some(
        (session) => session.sessionId === chatId && session.agentId === "general",
      );
      if (!listed) await sleep(200);
    }
    assert.ok(listed, "the session is listed");

    const mismatch = await post(
      "/api/chat/cognitive-reasoner",
      JSON.stringify({ id: chatId, messages: [userMessage("hi")] }),
    );
    assert.equal(mismatch.status, 409);
    assert.equal(
      ((await mismatch.json()) as { error: { code: string } }).error.code,
      "agent_mismatch",
    );

    const ended = await fetch(`${url}/api/sessions/${chatId}?reason=done`, {
      method: "DELETE",
      headers: auth,
    });
    assert.equal(ended.status, 200);
    assert.equal(((await ended.json()) as SessionView).endReason, "done");
    const refused = await post(
      "/api/chat/general",
      JSON.stringify({ id: chatId, messages: [userMessage("Still there?")] }),
    );
    assert.equal(refused.status, 409);
    assert.equal(
      ((await refused.json()) as { error: { code: string } }).error.code,
      "session_ended",
    );
  });
});
