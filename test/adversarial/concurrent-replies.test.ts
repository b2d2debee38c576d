import assert from "node:assert/strict";
import { after, before, describe, it } from "node:test";
import { setTimeout as sleep } from "node:timers/promises";
import proto from "@temporalio/proto";
import { StreamHub, watchTurn, type TurnWatchEvent } from "../../src/client/index.ts";
import { createApiServer, type ApiServer } from "../../src/server/index.ts";
import { workflowIdFor, type TurnResult } from "../../src/session/index.ts";
import { within } from "../faults/fault-support.ts";
import { fetchHistory } from "../support/history.ts";
import { shippedAgent } from "../support/shipped-agents.ts";
import { createTestEnv, uniqueId, type TestEnv } from "../support/temporal-env.ts";
import { chatAsUseChat, textOf, userMessage } from "../support/use-chat-client.ts";

// Item 2 of the hardening issue: with 100 messages sent at once to one session every turn ran,
// but some replies never reached their chat clients: the chat route waited for a
// `turn_finished` stream event that a viewer can miss in a stream gap, and then waited forever.

const general = shippedAgent("general");
const messageCount = 100;
/** 100 one-step turns take well under a minute here; a lost reply never arrives. */
const allRepliesMs = 150_000;
const EventType = proto.temporal.api.enums.v1.EventType;

/** The message ids in the order the session accepted them (its update-accepted events). */
async function acceptanceOrder(env: TestEnv, sessionId: string): Promise<string[]> {
  const history = await fetchHistory(env.client, workflowIdFor(sessionId));
  return (history.events ?? []).flatMap((event) => {
    if (event.eventType !== EventType.EVENT_TYPE_WORKFLOW_EXECUTION_UPDATE_ACCEPTED) return [];
    const payload =
      event.workflowExecutionUpdateAcceptedEventAttributes?.acceptedRequest?.input?.args
        ?.payloads?.[0];
    const message = payload?.data
      ? (JSON.parse(Buffer.from(payload.data).toString("utf8")) as { messageId?: string })
      : {};
    return message.messageId === undefined ? [] : [message.messageId];
  });
}

/** Each reply once, turns numbered 1…N in the order the session accepted the messages. */
function assertInAcceptanceOrder(
  replies: { messageId: string; turn: number }[],
  accepted: string[],
): void {
  assert.equal(replies.length, messageCount);
  assert.equal(new Set(replies.map((reply) => reply.messageId)).size, messageCount);
  const turnOf = new Map(replies.map((reply) => [reply.messageId, reply.turn]));
  assert.deepEqual(
    accepted.map((messageId) => turnOf.get(messageId)),
    Array.from({ length: messageCount }, (_, index) => index + 1),
  );
}

describe("no reply is ever lost to a client", { timeout: 300_000 }, () => {
  let env: TestEnv;
  let api: ApiServer;
  let url: string;
  before(async () => {
    env = await createTestEnv();
    await env.startWorker();
    api = createApiServer({ client: env.client, taskQueue: env.taskQueue, agentsDirs: ["agents"] });
    ({ url } = await api.listen(0, "127.0.0.1"));
  });
  after(async () => {
    await api.close();
    await env.close();
  });

  it("100 chat requests at once to one session over HTTP: 100 replies, each once, in order", async () => {
    const chatId = uniqueId("hundred-http");
    // The first message creates the session; the other 99 arrive while it runs.
    const send = async (
      index: number,
    ): Promise<{ messageId: string; turn: number; text: string }> => {
      const messageId = `m${index}`;
      const last = await chatAsUseChat({
        url,
        agentId: "general",
        chatId,
        messages: [userMessage(`hello ${index}`, messageId)],
      });
      const metadata = last.metadata as { turn: number } | undefined;
      assert.ok(metadata !== undefined, `the finish chunk of ${messageId}`);
      const text = textOf(last);
      return { messageId, turn: metadata.turn, text };
    };
    const first = send(0);
    await sleep(200);
    const replies = await within(
      Promise.all([
        first,
        ...Array.from({ length: messageCount - 1 }, (_, index) => send(index + 1)),
      ]),
      allRepliesMs,
      "100 replies over HTTP",
    );
    for (const reply of replies)
      assert.match(reply.text, /hello/, `the text of ${reply.messageId}`);
    assertInAcceptanceOrder(replies, await acceptanceOrder(env, chatId));
  });

  it("100 sendMessage updates at once to one session: 100 results, each once, in order", async () => {
    const sessionId = uniqueId("hundred-send");
    await env.sessions.start({ template: general, sessionId });
    const results = await within(
      Promise.all(
        Array.from({ length: messageCount }, (_, index) =>
          env.sessions.send(sessionId, `hello ${index}`, `s${index}`),
        ),
      ),
      allRepliesMs,
      "100 update results",
    );
    assertInAcceptanceOrder(results, await acceptanceOrder(env, sessionId));
  });

  it("a viewer that falls behind the live stream still gets the turn's reply, whole", async () => {
    const sessionId = uniqueId("slow-viewer");
    await env.sessions.start({ template: general, sessionId });
    // A feed that keeps only three events: a viewer reading slowly misses the turn's end.
    const hub = new StreamHub(env.client, { bufferLimit: 3 });
    try {
      const accepted = await env.sessions.submitTo(sessionId, "hello, slowly", "slow-1");
      const seen: TurnWatchEvent[] = [];
      await within(
        (async () => {
          for await (const watched of watchTurn({
            hub,
            sessionId,
            messageId: "slow-1",
            result: accepted.result(),
            graceMs: 500,
          })) {
            seen.push(watched);
            await sleep(300);
          }
        })(),
        30_000,
        "the slow viewer's turn",
      );
      const finished = seen.at(-1);
      assert.equal(finished?.type, "finished");
      const result: TurnResult = finished.result;
      assert.equal(result.messageId, "slow-1");
      assert.match(result.text, /hello, slowly/);
    } finally {
      hub.close();
    }
  });
});
