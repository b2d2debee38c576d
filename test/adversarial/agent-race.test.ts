import assert from "node:assert/strict";
import { after, before, describe, it } from "node:test";
import { createApiServer, type ApiServer } from "../../src/server/index.ts";
import { createTestEnv, uniqueId, type TestEnv } from "../support/temporal-env.ts";

/** A useChat-shaped first message; the status, and the body read to its end. */
async function firstMessage(
  url: string,
  agentId: string,
  chatId: string,
): Promise<{ status: number; body: string }> {
  const response = await fetch(`${url}/api/chat/${agentId}`, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify({
      id: chatId,
      messages: [{ id: uniqueId("m"), role: "user", parts: [{ type: "text", text: "hello" }] }],
      trigger: "submit-message",
    }),
    signal: AbortSignal.timeout(60_000),
  });
  return { status: response.status, body: await response.text() };
}

describe("two first messages racing to create one session with different agents", () => {
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

  it(
    "accepts exactly one agent and answers 409 agent_mismatch to the other, every round",
    {
      timeout: 180_000,
    },
    async () => {
      const rounds = 20;
      const outcomes: string[] = [];
      for (let round = 0; round < rounds; round++) {
        const chatId = uniqueId("race");
        const answers = await Promise.all([
          firstMessage(url, "general", chatId),
          firstMessage(url, "cognitive-reasoner", chatId),
        ]);
        const statuses = answers.map((answer) => answer.status).sort();
        outcomes.push(statuses.join("/"));
        const unexpected = answers.find((answer) => answer.status !== 200 && answer.status !== 409);
        assert.equal(unexpected, undefined, `round ${round}: ${unexpected?.body ?? ""}`);
        const loser = answers.find((answer) => answer.status === 409);
        if (loser !== undefined) {
          assert.equal(
            (JSON.parse(loser.body) as { error: { code: string } }).error.code,
            "agent_mismatch",
          );
        }
      }
      assert.deepEqual(
        outcomes,
        Array.from({ length: rounds }, () => "200/409"),
        `statuses per round: ${outcomes.join(", ")}`,
      );
    },
  );
});
