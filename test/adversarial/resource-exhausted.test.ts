import assert from "node:assert/strict";
import { after, before, describe, it } from "node:test";
import { startServe, type CliProcess } from "../support/cli-process.ts";
import { createTestEnv, testServer, uniqueId, type TestEnv } from "../support/temporal-env.ts";

// The server admits at most 10 updates in flight per workflow. With no worker on the session's
// task queue no update is ever completed, so the 11th concurrent message is refused by Temporal
// with RESOURCE_EXHAUSTED: the API must say "try again later", not "internal error".
const concurrent = 14;

interface Outcome {
  status: number | "pending";
  retryAfter: string | null;
  body: string;
  ms: number;
}

describe(
  "more concurrent messages to one session than Temporal admits",
  { timeout: 120_000 },
  () => {
    let serve: CliProcess | undefined;
    let env: TestEnv | undefined;
    let url = "";
    const server = testServer();
    const taskQueue = uniqueId("exhausted-queue");
    const sessionId = uniqueId("exhausted");

    before(async () => {
      env = await createTestEnv({ taskQueue });
      const started = await startServe({
        ...process.env,
        TEMPORAL_ADDRESS: server.address,
        TEMPORAL_NAMESPACE: server.namespace,
        AGENTDOCK_TASK_QUEUE: taskQueue,
      });
      serve = started.process;
      url = started.url;
    });
    after(async () => {
      await serve?.kill();
      await env?.client.workflow
        .getHandle(`session-${sessionId}`)
        .terminate("test over")
        .catch(() => undefined);
      await env?.close();
    });

    it("answers 429 with Retry-After, never 500, to the messages Temporal refuses", async () => {
      const gone = new AbortController();
      // The first message starts the session; the others follow once it exists.
      const send = async (index: number): Promise<Outcome> => {
        const started = performance.now();
        const elapsed = (): number => Math.round(performance.now() - started);
        const settle = new Promise<Outcome>((resolve) => {
          setTimeout(() => {
            resolve({ status: "pending", retryAfter: null, body: "", ms: elapsed() });
          }, 10_000).unref();
        });
        const request = fetch(`${url}/api/chat/cognitive-reasoner`, {
          method: "POST",
          headers: { "content-type": "application/json" },
          body: JSON.stringify({
            id: sessionId,
            messages: [
              {
                id: `m${index}`,
                role: "user",
                parts: [{ type: "text", text: `message ${index}` }],
              },
            ],
          }),
          signal: gone.signal,
        }).then(
          async (response): Promise<Outcome> => ({
            status: response.status,
            retryAfter: response.headers.get("retry-after"),
            body: response.status === 200 ? "" : await response.text(),
            ms: elapsed(),
          }),
          (error: unknown): Outcome => ({
            status: "pending",
            retryAfter: null,
            body: String(error),
            ms: elapsed(),
          }),
        );
        return Promise.race([request, settle]);
      };
      const first = send(0);
      await waitForSession(sessionId);
      const outcomes = await Promise.all([
        first,
        ...Array.from({ length: concurrent - 1 }, (_, index) => send(index + 1)),
      ]);
      gone.abort();
      const shown = JSON.stringify(outcomes, null, 1);
      assert.ok(
        outcomes.every((outcome) => outcome.status === "pending" || outcome.status === 429),
        shown,
      );
      const refused = outcomes.filter((outcome) => outcome.status === 429);
      assert.ok(refused.length >= concurrent - 10, shown);
      for (const outcome of refused) {
        assert.match(outcome.retryAfter ?? "", /^\d+$/, shown);
        // At once: not after the Temporal client's ~40 s of retries.
        // The API waits for room while the session makes progress; this one makes none (no
        // worker), so the refusal comes once it has been stalled for 2 s (never a 40 s wait).
        assert.ok(outcome.ms < 8_000, shown);
        assert.equal(
          (JSON.parse(outcome.body) as { error: { code: string } }).error.code,
          "session_busy",
        );
      }
    });

    async function waitForSession(id: string): Promise<void> {
      const deadline = Date.now() + 15_000;
      while (Date.now() < deadline) {
        const described = await env?.client.workflow
          .getHandle(`session-${id}`)
          .describe()
          .catch(() => undefined);
        if (described !== undefined) return;
        await new Promise((resolve) => setTimeout(resolve, 100));
      }
      throw new Error(`session ${id} did not start`);
    }
  },
);
