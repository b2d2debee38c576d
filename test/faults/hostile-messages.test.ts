import assert from "node:assert/strict";
import { randomUUID } from "node:crypto";
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { after, before, describe, it } from "node:test";
import { setTimeout as sleep } from "node:timers/promises";
import { WorkflowUpdateStage, type WorkflowUpdateHandle } from "@temporalio/client";
import {
  sendMessageUpdate,
  workflowIdFor,
  MAX_MESSAGE_CHARS,
  SESSION_WORKFLOW_TYPE,
  type LoggedEvent,
  type SessionInput,
  type SessionMessage,
  type TurnResult,
} from "../../src/session/index.ts";
import { loadTemplateFile } from "../../src/agents/index.ts";
import { toolCatalogueEntries } from "../../src/tools/index.ts";
import { shippedAgent } from "../support/shipped-agents.ts";
import { createTestEnv, testServer, uniqueId, type TestEnv } from "../support/temporal-env.ts";
import { countEvents, eventsOf, scratchDir, waitFor, within } from "./fault-support.ts";

// test/workflow/message-order.test.ts covers two messages at once, duplicate ids and update
// validation. Here: fifty at once, signals and updates mixed, and signals nobody validated.

const general = shippedAgent("general");
const messageCount = 50;
/** A healthy session answers a one-step turn in well under a second; a wedged one never does. */
const promptMs = 15_000;

describe("hostile message traffic", { concurrency: true }, () => {
  let env: TestEnv;
  const started: string[] = [];
  before(async () => {
    env = await createTestEnv();
    await env.startWorker();
  });
  after(async () => {
    // A wedged session retries its workflow task forever: stop it so it costs nothing after us.
    for (const sessionId of started) {
      if (await env.sessions.isRunning(sessionId)) {
        await env.sessions.handle(sessionId).terminate("fault test finished");
      }
    }
    await env.close();
  });

  /** A session that has run its first workflow task (every handler is registered). */
  async function startSession(prefix: string): Promise<string> {
    const sessionId = uniqueId(prefix);
    started.push(sessionId);
    await env.sessions.start({ template: general, sessionId });
    await waitFor(
      "the session's first workflow task",
      () => env.sessions.state(sessionId),
      promptMs,
    );
    return sessionId;
  }

  /** A session started by signal-with-start: the signal is in its very first workflow task. */
  async function startWithSignal(prefix: string, name: string, args: unknown[]): Promise<string> {
    const sessionId = uniqueId(prefix);
    started.push(sessionId);
    const input: SessionInput = { sessionId, template: general };
    await env.client.workflow.signalWithStart(SESSION_WORKFLOW_TYPE, {
      workflowId: workflowIdFor(sessionId),
      taskQueue: env.taskQueue,
      args: [input],
      signal: name,
      signalArgs: args,
    });
    return sessionId;
  }

  async function allEvents(sessionId: string): Promise<LoggedEvent[]> {
    return (await env.sessions.events(sessionId, 0)).events;
  }

  /** Waits for `turns` answered turns; fails at once if a workflow task fails meanwhile. */
  async function waitForTurns(sessionId: string, turns: number, timeoutMs: number): Promise<void> {
    const workflowId = workflowIdFor(sessionId);
    await waitFor(
      `${turns} answered turns in ${sessionId}`,
      async () => {
        const { taskFailures } = await countEvents(env.client, workflowId);
        assert.deepEqual(taskFailures, [], "no workflow task failed");
        const state = await env.sessions.state(sessionId);
        return state.turn >= turns && state.pendingMessages === 0 ? true : undefined;
      },
      timeoutMs,
    );
  }

  /**
   * The next normal message is answered promptly and the workflow task never failed: the session
   * was not wedged. Fails as soon as a WorkflowTaskFailed event appears instead of waiting it out.
   */
  async function stillAnswers(
    sessionId: string,
    messageId: string,
    text = "A normal question",
  ): Promise<TurnResult> {
    const workflowId = workflowIdFor(sessionId);
    const reply = env.sessions.send(sessionId, text, messageId);
    // An object, not a `let`: TypeScript cannot see the callback change a local.
    const progress = { settled: false };
    const watched = reply.finally(() => {
      progress.settled = true;
    });
    watched.catch(() => undefined);
    const deadline = Date.now() + promptMs;
    while (!progress.settled) {
      const { taskFailures } = await countEvents(env.client, workflowId);
      assert.deepEqual(taskFailures, [], "no workflow task failed (the session is not wedged)");
      assert.ok(Date.now() < deadline, `no answer within ${promptMs} ms`);
      await sleep(200);
    }
    const result = await reply;
    assert.equal(result.error, undefined);
    assert.deepEqual((await countEvents(env.client, workflowId)).taskFailures, []);
    return result;
  }

  /**
   * The user messages of the conversation, checked against the turn order: the `history` query
   * shows the most recent turns (older ones folded into a "Summary of the N earlier turns"
   * message when the session bounds its history), so they must be the tail of `order`, and
   * summarised plus shown must be every turn.
   */
  async function assertConversationFollows(sessionId: string, order: string[]): Promise<void> {
    const history: SessionMessage[] = await env.sessions.history(sessionId);
    const users = history.filter((message) => message.role === "user").map((m) => m.content);
    const summary = history
      .map((message) => /^Summary of the (\d+) earlier turns/.exec(String(message.content)))
      .find((match) => match !== null);
    const summarised = summary ? Number(summary[1]) : 0;
    assert.equal(summarised + users.length, order.length, "every turn is shown or summarised");
    assert.deepEqual(users, order.slice(summarised), "the conversation follows the turn order");
  }

  const signal = (sessionId: string, name: string, ...args: unknown[]): Promise<void> =>
    env.sessions.handle(sessionId).signal(name, ...args);

  it(`answers ${messageCount} messages sent at once (signals and updates mixed) once each, in one consistent order`, async () => {
    const sessionId = await startSession("flood-at-once");
    const ids = Array.from({ length: messageCount }, (_, n) => `m${n}`);
    const textOf = (id: string) => `question ${id}`;
    const updates: Promise<TurnResult>[] = [];
    await Promise.all(
      ids.map((id, n) => {
        if (n % 2 === 1) return env.sessions.post(sessionId, textOf(id), id);
        const reply = env.sessions.send(sessionId, textOf(id), id);
        updates.push(reply);
        return reply;
      }),
    );
    await waitForTurns(sessionId, messageCount, 60_000);

    // One order, whatever the arrival order was: turns, conversation and results agree on it.
    const events = await allEvents(sessionId);
    const order = eventsOf(events, "turn_started").map((event) => event.messageId);
    assert.deepEqual([...order].sort(), [...ids].sort(), "every message started one turn");
    assert.deepEqual(
      eventsOf(events, "turn_finished").map((event) => [event.messageId, event.turn]),
      order.map((id, n) => [id, n + 1]),
      "each turn finished once, in the order it started",
    );
    await assertConversationFollows(sessionId, order.map(textOf));
    for (const result of await Promise.all(updates)) {
      assert.equal(result.error, undefined);
      assert.equal(order[result.turn - 1], result.messageId, "the reply is its own turn's");
    }
    assert.equal((await env.sessions.state(sessionId)).turn, messageCount);
  });

  it(`answers ${messageCount} messages sent back to back without waiting for replies, in send order`, async () => {
    const sessionId = await startSession("flood-in-order");
    const handle = env.sessions.handle(sessionId);
    const updates: WorkflowUpdateHandle<TurnResult>[] = [];
    const texts: string[] = [];
    // Each send waits only until the session has the message (signal recorded, update accepted).
    for (let n = 0; n < messageCount; n++) {
      const text = `in order ${n}`;
      texts.push(text);
      if (n % 2 === 0) {
        await env.sessions.post(sessionId, text, `m${n}`);
      } else {
        updates.push(
          await handle.startUpdate(sendMessageUpdate, {
            args: [{ messageId: `m${n}`, text }],
            waitForStage: WorkflowUpdateStage.ACCEPTED,
          }),
        );
      }
    }
    const results = await within(
      Promise.all(updates.map((update) => update.result())),
      60_000,
      "the update replies",
    );
    await waitForTurns(sessionId, messageCount, 60_000);

    assert.deepEqual(
      results.map((result) => [result.messageId, result.turn]),
      updates.map((_update, n) => [`m${2 * n + 1}`, 2 * n + 2]),
    );
    await assertConversationFollows(sessionId, texts);
    const events = await allEvents(sessionId);
    assert.deepEqual(
      eventsOf(events, "turn_finished").map((event) => event.messageId),
      texts.map((_text, n) => `m${n}`),
    );
  });

  it("rejects malformed userMessage signals visibly and keeps answering", async () => {
    const sessionId = await startSession("bad-signals");
    const malformed: unknown[][] = [
      [],
      [null],
      [42],
      ["just a string"],
      [[]],
      [{}],
      [{ text: "no id" }],
      [{ messageId: "no-text" }],
      [{ messageId: 7, text: "a number for an id" }],
      [{ messageId: "number-text", text: 12345 }],
      [{ messageId: "", text: "an empty id" }],
      [{ messageId: "blank", text: "   " }],
      [{ messageId: "extra", text: "hello", role: "system" }],
      [{ messageId: { nested: true }, text: ["a", "list"] }],
      [{ messageId: "x".repeat(10_000), text: "a huge id" }],
      [{ messageId: "huge-text", text: "x".repeat(1_000_000) }],
      [{ messageId: "two-args", text: "hello" }, "a second argument"],
    ];
    for (const args of malformed) await signal(sessionId, "userMessage", ...args);

    const result = await stillAnswers(sessionId, "good");
    assert.equal(result.turn, 2);
    // One malformed signal (two arguments) carries a valid first argument: it counts as a message.
    const rejected = eventsOf(await allEvents(sessionId), "message_rejected");
    assert.equal(rejected.length, malformed.length - 1, JSON.stringify(rejected));
    for (const event of rejected) assert.match(event.reason, /^signal: /);
    const users = (await env.sessions.history(sessionId)).filter((m) => m.role === "user");
    assert.deepEqual(
      users.map((message) => message.content),
      ["hello", "A normal question"],
    );
    const { signals } = await countEvents(env.client, workflowIdFor(sessionId));
    assert.ok(signals >= malformed.length, "every malformed signal reached the workflow");
  });

  it("rejects a malformed userMessage signal that starts the session (signal-with-start) and keeps answering", async () => {
    const sessionId = await startWithSignal("bad-signal-first", "userMessage", [{ text: 42 }]);
    const result = await stillAnswers(sessionId, "good");
    assert.equal(result.turn, 1);
    const rejected = eventsOf(await allEvents(sessionId), "message_rejected");
    assert.equal(rejected.length, 1, JSON.stringify(rejected));
  });

  it("names the field of a malformed userMessage signal in its rejection", async () => {
    const sessionId = await startSession("bad-signal-reason");
    await signal(sessionId, "userMessage", { messageId: 7, text: "hi" });
    await signal(sessionId, "userMessage", { messageId: "ok", text: 12 });
    const reasons = await waitFor(
      "two rejections",
      async () => {
        const rejected = eventsOf(await allEvents(sessionId), "message_rejected");
        return rejected.length === 2 ? rejected.map((event) => event.reason) : undefined;
      },
      promptMs,
    );
    assert.match(reasons[0] ?? "", /messageId/);
    assert.match(reasons[1] ?? "", /\btext\b/);
  });

  // The workflow-streams publish signal: the model activity publishes stream parts with it, but
  // any client can send it, and the library's own handler throws on a malformed one.
  const publish = "__temporal_workflow_stream_publish";
  const malformedPublishes: unknown[][] = [
    [],
    [null],
    ["garbage"],
    [{}],
    [{ items: "not a list", publisher_id: "p", sequence: 1 }],
    [{ items: [{ topic: 5, data: 1 }], publisher_id: 1, sequence: "one" }],
    [{ items: [{ topic: "events", data: "%%% not base64 %%%" }], publisher_id: "p", sequence: 1 }],
  ];

  async function assertPublishesRejected(sessionId: string, expected: number): Promise<void> {
    await stillAnswers(sessionId, "good");
    const rejected = eventsOf(await allEvents(sessionId), "message_rejected").filter((event) =>
      event.reason.includes("stream publish"),
    );
    assert.equal(rejected.length, expected, JSON.stringify(rejected));
  }

  it("rejects malformed workflow-stream publish signals to a running session visibly and keeps answering", async () => {
    const sessionId = await startSession("bad-publish");
    for (const args of malformedPublishes) await signal(sessionId, publish, ...args);
    await assertPublishesRejected(sessionId, malformedPublishes.length);
  });

  it("rejects a malformed workflow-stream publish signal that arrives with the session's first workflow task", async () => {
    const sessionId = await startWithSignal("bad-publish-first", publish, [null]);
    await assertPublishesRejected(sessionId, 1);
  });

  it("rejects a malformed endSession signal visibly instead of ending the session", async () => {
    const sessionId = await startSession("bad-end");
    const malformed: unknown[] = [42, "garbage", { reason: 123 }, { reason: "x".repeat(1_000) }];
    for (const payload of malformed) await signal(sessionId, "endSession", payload);

    await stillAnswers(sessionId, "good");
    const state = await env.sessions.state(sessionId);
    assert.notEqual(state.status, "ended");
    const rejected = eventsOf(await allEvents(sessionId), "message_rejected");
    assert.equal(rejected.length, malformed.length, JSON.stringify(rejected));
  });

  it("rejects a userMessage signal whose payload bytes are not JSON without failing the workflow task", async () => {
    const sessionId = await startSession("bad-bytes");
    const encode = (text: string) => new TextEncoder().encode(text);
    await env.client.workflowService.signalWorkflowExecution({
      namespace: testServer().namespace,
      workflowExecution: { workflowId: workflowIdFor(sessionId) },
      signalName: "userMessage",
      input: {
        payloads: [{ metadata: { encoding: encode("json/plain") }, data: encode("{not json") }],
      },
      identity: "fault-suite",
      requestId: randomUUID(),
    });

    await stillAnswers(sessionId, "good");
    const rejected = eventsOf(await allEvents(sessionId), "message_rejected");
    assert.equal(rejected.length, 1);
  });

  async function longMessageOnRegex(pattern: string): Promise<void> {
    const scratch = scratchDir("poly-regex");
    try {
      const file = join(scratch.dir, "template.json");
      const orchestration = {
        defaultStep: "Chat",
        steps: [
          { name: "Chat", availableTools: { allowed: ["think"] } },
          {
            name: "Compare",
            conditions: [
              {
                type: "message_regex",
                value: pattern,
                flags: "i",
              },
            ],
            availableTools: { allowed: ["compare"] },
          },
        ],
      };
      writeFileSync(
        file,
        JSON.stringify({ id: "poly", name: "Poly", tools: ["think", "compare"], orchestration }),
      );
      const { template } = loadTemplateFile(file, toolCatalogueEntries);
      const sessionId = uniqueId("poly-regex");
      started.push(sessionId);
      await env.sessions.start({ template, sessionId });
      const longest = "compare and ".repeat(Math.floor(MAX_MESSAGE_CHARS / 12));
      try {
        await stillAnswers(sessionId, "long", longest);
      } finally {
        // A wedged task burns a worker thread for 5 s per attempt: stop it before other tests.
        if (await env.sessions.isRunning(sessionId)) {
          await env.sessions.handle(sessionId).terminate("fault test finished");
        }
      }
    } finally {
      scratch.remove();
    }
  }

  // message_regex runs on RE2 (linear time) over the whole message: patterns that backtrack
  // polynomially on JavaScript's engine answer the longest message promptly.
  it("answers the longest message promptly with a cubic-on-backtracking message_regex", async () => {
    await longMessageOnRegex("\\bcompare\\b.*\\band\\b.*\\bbecause\\b");
  });
  it("answers the longest message promptly with a quadratic-on-backtracking message_regex", async () => {
    await longMessageOnRegex("\\bcompare\\b.*\\bbecause\\b");
  });
});
