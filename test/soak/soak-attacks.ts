import { randomUUID } from "node:crypto";
import { WorkflowStreamClient } from "@temporalio/workflow-streams/client";
import { encodePayloadWire } from "@temporalio/workflow-streams/workflow";
import type { AgentTemplate } from "../../src/orchestration/index.ts";
import {
  sendMessageUpdate,
  userMessageSignal,
  workflowIdFor,
  MODEL_PARTS_TOPIC,
  SESSION_EVENTS_TOPIC,
  SESSION_WORKFLOW_TYPE,
  type SessionInput,
} from "../../src/session/index.ts";
import { shippedAgent } from "../support/shipped-agents.ts";
import { chat, request } from "./soak-http.ts";
import type { SoakStack } from "./soak-stack.ts";
import { soakTenants } from "./soak-stack.ts";
import type { SoakTally } from "./soak-tally.ts";

/** One hostile request of one kind; each records what it sent and anything that went wrong. */
export type Attack = (stack: SoakStack, tally: SoakTally) => Promise<void>;

const encoder = new TextEncoder();
const replyMs = 60_000;
const newId = (prefix: string): string => `${prefix}-${randomUUID().slice(0, 8)}`;
const { alpha, beta } = soakTenants;

/** Starts a workflow by hand, past the API, with a template nobody validated. */
async function handStarted(
  stack: SoakStack,
  tally: SoakTally,
  kind: string,
  template: AgentTemplate,
): Promise<void> {
  const sessionId = newId(kind);
  const input: SessionInput = { sessionId, template };
  tally.count(`hand-started workflow: ${kind}`);
  await stack.client.workflow.start(SESSION_WORKFLOW_TYPE, {
    workflowId: workflowIdFor(sessionId),
    taskQueue: stack.taskQueue,
    args: [input],
  });
  const result = await stack.sessions
    .send(sessionId, "hello", "m1")
    .catch((error: unknown) => error);
  tally.expect(
    typeof result === "object" &&
      result !== null &&
      "error" in result &&
      typeof result.error === "string",
    `${kind}: the turn should fail with an error, got ${JSON.stringify(result)}`,
  );
}

const general = (): AgentTemplate => shippedAgent("general");

export const attacks: Record<string, Attack> = {
  async "bad message ids over HTTP"(stack, tally) {
    for (const id of [" m1", "", "a b", "x".repeat(300), "m1\n"]) {
      tally.count("bad message id (HTTP)");
      const outcome = await chat(
        stack.apiUrl,
        alpha,
        "general",
        newId("badid"),
        id,
        "hello",
        replyMs,
      );
      tally.expect(
        outcome.status === 400,
        `message id ${JSON.stringify(id)}: ${outcome.status} ${outcome.raw.slice(0, 200)}`,
      );
    }
  },

  async "bad message ids past the API"(stack, tally) {
    const sessionId = newId("rawid");
    await stack.sessions.start({ template: general(), sessionId });
    const handle = stack.sessions.handle(sessionId);
    tally.count("bad message id (signal)");
    await handle.signal(userMessageSignal, { messageId: " m1", text: "hello" });
    tally.count("bad message id (update)", 10);
    await Promise.allSettled(
      Array.from({ length: 10 }, (_, index) =>
        handle.executeUpdate(sendMessageUpdate, {
          args: [{ messageId: ` bad${index}`, text: "hi" }],
        }),
      ),
    );
  },

  async "burst of 30 messages to one session"(stack, tally) {
    const chatId = newId("burst");
    tally.count("burst message (HTTP)", 30);
    const outcomes = await Promise.all(
      Array.from({ length: 30 }, (_, index) =>
        chat(stack.apiUrl, alpha, "general", chatId, `b${index}`, `burst ${index}`, replyMs * 3),
      ),
    );
    for (const [index, outcome] of outcomes.entries()) {
      if (outcome.status === 200 && outcome.turn === undefined)
        tally.lost.push(`${chatId} b${index}: no finish`);
      else if (outcome.status === 429 || outcome.status === 503) continue;
      else
        tally.expect(
          outcome.status === 200,
          `burst ${index}: ${outcome.status} ${outcome.raw.slice(0, 200)}`,
        );
    }
  },

  async "stream publishes from outside"(stack, tally) {
    const chatId = newId("inject");
    await chat(stack.apiUrl, alpha, "general", chatId, "m1", "hello", replyMs);
    const workflowId = workflowIdFor(chatId);
    tally.count("malformed stream publish");
    await stack.client.workflow.getHandle(workflowId).signal("__temporal_workflow_stream_publish", {
      items: [
        {
          topic: SESSION_EVENTS_TOPIC,
          data: encodePayloadWire({
            metadata: { encoding: encoder.encode("json/plain") },
            data: encoder.encode("{not json"),
          }),
        },
      ],
      publisher_id: "soak",
      sequence: 1,
    });
    tally.count("injected stream publish");
    const injector = WorkflowStreamClient.create(stack.client, workflowId);
    injector
      .topic(MODEL_PARTS_TOPIC)
      .publish(encoder.encode(JSON.stringify({ type: "text-delta", id: "t", delta: "INJECTED" })));
    await injector[Symbol.asyncDispose]();
    const events = await request(stack.apiUrl, `/api/sessions/${chatId}/events`, {
      token: alpha,
      signal: AbortSignal.timeout(3_000),
    }).catch(() => undefined);
    const after = await chat(stack.apiUrl, alpha, "general", chatId, "m2", "still there?", replyMs);
    if (after.turn === undefined) tally.lost.push(`${chatId} m2 after injection: ${after.status}`);
    if (/INJECTED/.test(after.raw) || /INJECTED/.test(events?.body ?? "")) {
      tally.leaked.push(`${chatId}: injected text reached a viewer`);
    }
  },

  async "a template pointing the worker's key at a listener"(stack, tally) {
    await handStarted(stack, tally, "baseurl-trap", {
      ...general(),
      llm: { provider: "openai", model: "gpt-4o-mini", baseURL: `${stack.trapUrl}/v1` },
    });
  },

  async "a template reading a file through script:"(stack, tally) {
    await handStarted(stack, tally, "script-passwd", {
      ...general(),
      llm: { provider: "scripted", model: "script:/etc/passwd" },
    });
  },

  async "a template the workflow cannot run"(stack, tally) {
    await handStarted(stack, tally, "scripted-gpt4o", {
      ...general(),
      llm: { provider: "scripted", model: "gpt-4o" },
    });
  },

  async "a provider that echoes the key"(stack, tally) {
    tally.count("chat with a key-echoing provider");
    const outcome = await chat(
      stack.apiUrl,
      alpha,
      "echo-agent",
      newId("echo"),
      "m1",
      "hello",
      replyMs,
    );
    if (outcome.status === 200 && outcome.turn === undefined)
      tally.lost.push("echo-agent: no finish");
  },

  async "regexes built to backtrack"(stack, tally) {
    tally.count("32,000-character message to a backtracking regex");
    const outcome = await chat(
      stack.apiUrl,
      alpha,
      "regex-agent",
      newId("regex"),
      "m1",
      "a".repeat(31_990) + "b",
      replyMs,
    );
    if (outcome.status === 200 && outcome.turn === undefined)
      tally.lost.push("regex-agent: no finish");
    else
      tally.expect(
        outcome.status === 200 || outcome.status === 422,
        `regex-agent: ${outcome.status}`,
      );
  },

  async "two agents racing for one new session"(stack, tally) {
    const chatId = newId("race");
    tally.count("racing first messages", 2);
    const [first, second] = await Promise.all([
      chat(stack.apiUrl, alpha, "general", chatId, "r1", "hello", replyMs),
      chat(stack.apiUrl, alpha, "cognitive-reasoner", chatId, "r2", "hello", replyMs),
    ]);
    const statuses = [first.status, second.status].sort();
    tally.expect(
      statuses[0] === 200 && statuses[1] === 409,
      `race: statuses ${statuses.join(", ")}`,
    );
  },

  async "broken agent folders"(stack, tally) {
    tally.count("agents listing with a dangling link and a 20 MB template");
    const agents = await request(stack.apiUrl, "/api/agents", { token: alpha });
    tally.expect(agents.status === 200, `/api/agents: ${agents.status}`);
    tally.count("chat with a 20 MB template");
    const started = Date.now();
    const huge = await chat(
      stack.apiUrl,
      alpha,
      "huge-agent",
      newId("huge"),
      "m1",
      "hello",
      replyMs,
    );
    tally.expect(
      (huge.status === 413 || huge.status === 422) && Date.now() - started < 5_000,
      `huge-agent: ${huge.status} after ${Date.now() - started} ms`,
    );
  },

  async "another tenant's session"(stack, tally) {
    const chatId = newId("tenant");
    await chat(stack.apiUrl, alpha, "general", chatId, "m1", "my secret plan", replyMs);
    tally.count("cross-tenant request", 5);
    const probes = [
      request(stack.apiUrl, `/api/sessions/${chatId}`, { token: beta }),
      request(stack.apiUrl, `/api/sessions/${chatId}/history`, { token: beta }),
      request(stack.apiUrl, `/api/sessions/${chatId}`, { token: beta, method: "DELETE" }),
      request(stack.apiUrl, "/api/sessions?limit=1000", { token: beta }),
      chat(stack.apiUrl, beta, "general", chatId, "m2", "let me in", replyMs).then((outcome) => ({
        status: outcome.status,
        body: outcome.raw,
      })),
    ];
    const answers = await Promise.all(probes);
    for (const [index, answer] of answers.entries()) {
      if (index === 3) {
        if (answer.body.includes(chatId)) tally.leaked.push(`tenant beta lists ${chatId}`);
      } else if (answer.status !== 404) {
        tally.leaked.push(
          `tenant beta reached ${chatId}: probe ${index} answered ${answer.status}`,
        );
      }
    }
  },

  async "malformed requests"(stack, tally) {
    const cases: [string, RequestInit & { token?: string }, number[]][] = [
      [
        "/api/chat/general",
        {
          method: "POST",
          token: alpha,
          body: "{",
          headers: { "content-type": "application/json" },
        },
        [400],
      ],
      [
        "/api/chat/general",
        {
          method: "POST",
          token: alpha,
          body: "x".repeat(2 * 1024 * 1024),
          headers: { "content-type": "application/json" },
        },
        [413],
      ],
      [
        "/api/chat/general",
        { method: "POST", token: alpha, body: "hello", headers: { "content-type": "text/plain" } },
        [415],
      ],
      [
        "/api/chat/general",
        {
          method: "POST",
          token: "wrong-token",
          body: "{}",
          headers: { "content-type": "application/json" },
        },
        [401],
      ],
      ["/api/sessions/..%2F..%2Fetc", { token: alpha }, [404]],
    ];
    for (const [path, init, statuses] of cases) {
      tally.count("malformed request");
      const answer = await request(stack.apiUrl, path, init);
      tally.expect(
        statuses.includes(answer.status),
        `${init.method ?? "GET"} ${path}: ${answer.status} ${answer.body.slice(0, 200)}`,
      );
    }
  },
};
