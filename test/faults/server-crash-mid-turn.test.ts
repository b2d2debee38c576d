import assert from "node:assert/strict";
import { join } from "node:path";
import { after, describe, it } from "node:test";
import { startDevServer, type DevServer } from "../../src/dev-server/dev-server.ts";
import { freePort } from "../../src/dev-server/free-port.ts";
import { createSearxngProvider } from "../../src/search/index.ts";
import { sessionSearchAttributes, workflowIdFor } from "../../src/session/index.ts";
import { scheduledTools } from "../support/history.ts";
import { shippedAgent } from "../support/shipped-agents.ts";
import { createTestEnv, testServer, uniqueId, type TestEnv } from "../support/temporal-env.ts";
import {
  eventsOf,
  onScript,
  scratchDir,
  searchHits,
  startSearchServer,
  waitFor,
  within,
  writeScript,
  type SearchServer,
} from "./fault-support.ts";

// test/workflow/server-restart.test.ts stops its server gracefully between two turns. Here the
// server is killed (SIGKILL) while a turn is in flight, a search tool waiting on its provider,
// and started again on the same SQLite file; the worker, the waiting caller and the session must
// all carry on. A server of this test's own: the shared one must not go away under other files.

const planner = shippedAgent("research-planner");

describe("a dev server killed and restarted while a turn is in flight", () => {
  const scratch = scratchDir("server-crash");
  let server: DevServer | undefined;
  let env: TestEnv | undefined;
  let search: SearchServer | undefined;
  after(async () => {
    search?.release({ status: 200, body: searchHits });
    await env?.close();
    await server?.stop();
    await search?.close();
    scratch.remove();
  });

  it("finishes the turn once after the restart, answers the waiting caller, and takes the next message", async () => {
    const options = {
      cliPath: testServer().cliPath,
      dbFile: join(scratch.dir, "temporal.db"),
      port: await freePort(),
      uiPort: false as const,
      searchAttributes: sessionSearchAttributes,
      logFile: join(scratch.dir, "server.log"),
    };
    server = await startDevServer(options);
    // Every search waits until the test releases it: the turn is mid-tool for as long as needed.
    search = await startSearchServer(() => "hang");
    const provider = search;
    env = await createTestEnv({ address: server.address });
    await env.startWorker({ searchProvider: createSearxngProvider({ baseUrl: search.url }) });

    const script = writeScript(join(scratch.dir, "script.json"), [
      { toolCalls: [{ toolName: "search", input: { query: "durable execution" } }] },
      { text: "Found it after the restart." },
      { text: "Second turn answered." },
    ]);
    const sessionId = uniqueId("server-crash");
    const reply = env.sessions.sendWithStart(
      { template: onScript(planner, script), sessionId },
      "Find sources on durable execution",
      "m1",
    );
    reply.catch(() => undefined);
    await waitFor(
      "the search request of the turn",
      () => (provider.requests() >= 1 ? true : undefined),
      30_000,
    );

    process.kill(server.pid, "SIGKILL");
    await server.exited;
    await server.stop();
    server = await startDevServer(options);
    search.release({ status: 200, body: searchHits });

    // The caller that was waiting on the update before the crash gets the turn's result.
    const result = await within(reply, 60_000, "the reply of the turn in flight");
    assert.equal(result.error, undefined);
    assert.equal(result.text, "Found it after the restart.");
    assert.deepEqual(
      result.toolCalls.map((call) => [call.toolName, call.status]),
      [["search", "ok"]],
    );
    assert.deepEqual(await scheduledTools(env.client, workflowIdFor(sessionId)), ["search"]);

    const next = await within(
      env.sessions.send(sessionId, "Thanks", "m2"),
      30_000,
      "the reply to the next message",
    );
    assert.equal(next.text, "Second turn answered.");
    assert.equal(next.turn, 2);
    const { events } = await env.sessions.events(sessionId, 0);
    assert.deepEqual(
      eventsOf(events, "turn_finished").map((event) => event.messageId),
      ["m1", "m2"],
    );
    const users = (await env.sessions.history(sessionId)).filter(
      (message) => message.role === "user",
    );
    assert.deepEqual(
      users.map((message) => message.content),
      ["Find sources on durable execution", "Thanks"],
    );
  });
});
