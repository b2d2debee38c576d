import assert from "node:assert/strict";
import { spawn } from "node:child_process";
import { describe, it } from "node:test";
import { WorkflowUpdateStage } from "@temporalio/client";
import {
  messageIdSchema,
  sendMessageUpdate,
  userMessageSignal,
  workflowIdFor,
} from "../../src/session/index.ts";
import { createApiServer } from "../../src/server/index.ts";
import { eventsOf, waitFor, within } from "../faults/fault-support.ts";
import { fetchHistory } from "../support/history.ts";
import { shippedAgent } from "../support/shipped-agents.ts";
import { testServer, uniqueId, useSessionEnv } from "../support/temporal-env.ts";
import proto from "@temporalio/proto";

// Item 1 of the hardening issue: an id with a leading space was trimmed when queued and awaited
// untrimmed, so its caller waited forever, `end` answered "ended" while the workflow ran on,
// and ten such callers used up the server's in-flight update limit for the session.

const general = shippedAgent("general");
const EventType = proto.temporal.api.enums.v1.EventType;
/** A healthy session answers a one-step turn in well under a second; a wedged one never does. */
const promptMs = 15_000;

describe("message ids: one grammar, checked before history", { timeout: 120_000 }, () => {
  const session = useSessionEnv();

  it("the grammar accepts UUIDs and generated ids and refuses spaces, empties and overlong ids", () => {
    for (const good of ["m1", "0b6c9c1e-8d7a-4b61-9f0e-2a7d3c1f5e44", "msg-Ab_3.x:1"]) {
      assert.equal(messageIdSchema.safeParse(good).success, true, good);
    }
    for (const bad of [" m1", "m1 ", "", "a b", "x".repeat(129), "m1\n", "é"]) {
      assert.equal(messageIdSchema.safeParse(bad).success, false, JSON.stringify(bad));
    }
  });

  it("an update whose id has a leading space is refused by the validator, naming the field", async () => {
    const sessionId = uniqueId("space-update");
    await session.env.sessions.start({ template: general, sessionId });
    await assert.rejects(
      within(session.env.sessions.send(sessionId, "hello", " m1"), promptMs, "the refused update"),
      /messageId: a message id is 1 to 128/,
    );
    const history = await fetchHistory(session.env.client, workflowIdFor(sessionId));
    assert.equal(
      (history.events ?? []).filter(
        (event) => event.eventType === EventType.EVENT_TYPE_WORKFLOW_EXECUTION_UPDATE_ACCEPTED,
      ).length,
      0,
      "nothing about the refused update reaches history",
    );
    const answered = await within(
      session.env.sessions.send(sessionId, "hello again", "m2"),
      promptMs,
      "the next message",
    );
    assert.equal(answered.turn, 1);
  });

  it("ten refused ids leave the session's update capacity intact", async () => {
    const sessionId = uniqueId("space-ten");
    await session.env.sessions.start({ template: general, sessionId });
    const refused = await Promise.allSettled(
      Array.from({ length: 10 }, (_, index) =>
        within(
          session.env.sessions.send(sessionId, "hi", ` bad${index}`),
          promptMs,
          `bad ${index}`,
        ),
      ),
    );
    assert.deepEqual(
      refused.map((outcome) => outcome.status),
      Array.from({ length: 10 }, () => "rejected"),
    );
    const answered = await within(
      session.env.sessions.send(sessionId, "still there?", "ok-1"),
      promptMs,
      "a message after ten refused ones",
    );
    assert.equal(answered.messageId, "ok-1");
  });

  it("a signalled message with a bad id is rejected, and end reports ended only once the workflow closed", async () => {
    const sessionId = uniqueId("space-signal");
    const handle = await session.env.sessions.start({ template: general, sessionId });
    await handle.signal(userMessageSignal, { messageId: " m1", text: "hello" });
    await waitFor(
      "the rejection event",
      async () =>
        eventsOf((await session.env.sessions.events(sessionId, 0)).events, "message_rejected").find(
          (event) => event.reason.includes("messageId"),
        ),
      promptMs,
    );
    // A well-formed update waiting for its turn must not keep the session open either.
    const waiting = await handle.startUpdate(sendMessageUpdate, {
      args: [{ messageId: "m2", text: "answer me before you go" }],
      waitForStage: WorkflowUpdateStage.ACCEPTED,
    });
    const outcome = await within(session.env.sessions.end(sessionId, "done"), promptMs, "end");
    assert.equal(outcome.ended, true);
    assert.equal(outcome.view.status, "ended");
    assert.equal((await handle.describe()).status.name, "COMPLETED");
    assert.equal((await waiting.result()).turn, 1, "the queued message was answered first");
  });

  it("the HTTP API answers 400 naming the field, and starts nothing", async () => {
    const api = createApiServer({
      client: session.env.client,
      taskQueue: session.env.taskQueue,
      agentsDirs: ["agents"],
    });
    const { url } = await api.listen(0, "127.0.0.1");
    try {
      const chatId = uniqueId("space-http");
      for (const id of [" m1", "a b", "x".repeat(129)]) {
        const response = await fetch(`${url}/api/chat/general`, {
          method: "POST",
          headers: { "content-type": "application/json" },
          body: JSON.stringify({
            id: chatId,
            messages: [{ id, role: "user", parts: [{ type: "text", text: "hello" }] }],
          }),
        });
        assert.equal(response.status, 400, id);
        const body = (await response.json()) as { error: { message: string } };
        assert.match(body.error.message, /^messages\[0\]\.id: a message id is 1 to 128/);
      }
      assert.equal(await session.env.sessions.exists(chatId), false);
    } finally {
      await api.close();
    }
  });

  it("the CLI refuses a bad --message-id with exit 2 before connecting", async () => {
    const child = spawn(
      process.execPath,
      ["src/cli.ts", "send", "s1", "hello", "--message-id", " m1"],
      {
        env: { ...process.env, TEMPORAL_ADDRESS: testServer().address },
        stdio: ["ignore", "pipe", "pipe"],
      },
    );
    let stderr = "";
    child.stderr.on("data", (chunk: Buffer) => (stderr += chunk.toString()));
    const code = await new Promise<number | null>((resolve) => child.once("exit", resolve));
    assert.equal(code, 2, stderr);
    assert.match(stderr, /message-id.*a message id is 1 to 128/s);
  });
});
