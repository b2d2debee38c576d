import assert from "node:assert/strict";
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { after, before, describe, it } from "node:test";
import { setTimeout as sleep } from "node:timers/promises";
import { workflowIdFor } from "../../src/session/index.ts";
import { activityAttempts, recordHistory } from "../support/history.ts";
import { createTestEnv, testServer, uniqueId, type TestEnv } from "../support/temporal-env.ts";
import { spawnWorker, workerEnv, type WorkerProcess } from "../support/worker-process.ts";
import { shippedAgent } from "../support/shipped-agents.ts";

const planner = shippedAgent("research-planner");

/** A SearXNG-speaking search server whose first answer takes long enough to kill a worker mid-call. */
async function slowSearchServer(
  firstDelayMs: number,
): Promise<{ url: string; requests: () => number; server: Server }> {
  let count = 0;
  const server = createServer((_request, response) => {
    count++;
    const delay = count === 1 ? firstDelayMs : 0;
    setTimeout(() => {
      response.writeHead(200, { "content-type": "application/json" });
      response.end(
        JSON.stringify({
          results: [
            {
              title: "Durable execution",
              url: "https://example.org/durable",
              content: "Workflows survive crashes.",
            },
          ],
        }),
      );
    }, delay);
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    requests: () => count,
    server,
  };
}

describe("a worker killed during a slow tool activity", () => {
  let env: TestEnv;
  let search: Awaited<ReturnType<typeof slowSearchServer>>;
  const workers: WorkerProcess[] = [];
  before(async () => {
    env = await createTestEnv();
    search = await slowSearchServer(6_000);
  });
  after(async () => {
    for (const worker of workers) await worker.kill();
    search.server.closeAllConnections();
    search.server.close();
    await env.close();
  });

  it("completes the turn on a new worker, replies once, and the re-run is an activity retry in history", async () => {
    const processEnv = workerEnv(testServer(), env.taskQueue, search.url);
    const first = spawnWorker(processEnv);
    workers.push(first);
    await first.ready;

    const sessionId = uniqueId("crash");
    const reply = env.sessions.sendWithStart(
      { template: planner, sessionId },
      "Research durable execution",
      "m1",
    );

    // Wait until the search activity is running (the slow server has the request), then kill -9.
    for (let waited = 0; search.requests() === 0; waited += 100) {
      assert.ok(waited < 60_000, `search never started; worker output:\n${first.output()}`);
      await sleep(100);
    }
    await first.kill("SIGKILL");

    const second = spawnWorker(processEnv);
    workers.push(second);
    await second.ready;

    const result = await reply;
    assert.equal(result.error, undefined);
    assert.deepEqual(
      result.toolCalls.slice(0, 1).map((call) => [call.toolName, call.status]),
      [["search", "ok"]],
    );
    assert.ok(search.requests() >= 2, "the search ran again on the new worker");

    const { events } = await env.sessions.events(sessionId, 0);
    assert.equal(
      events.filter(({ event }) => event.type === "turn_finished").length,
      1,
      "one reply",
    );
    const attempts = await activityAttempts(env.client, workflowIdFor(sessionId));
    assert.ok(
      attempts.some((attempt) => attempt.type === "runTool" && attempt.attempt >= 2),
      `expected a retried runTool in history, got ${JSON.stringify(attempts)}`,
    );
    await recordHistory(env.client, workflowIdFor(sessionId), "worker-crash");
  });
});
