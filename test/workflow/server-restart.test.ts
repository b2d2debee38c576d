import assert from "node:assert/strict";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { after, describe, it } from "node:test";
import { startDevServer, type DevServer } from "../../src/dev-server/dev-server.ts";
import { freePort } from "../../src/dev-server/free-port.ts";
import { sessionSearchAttributes } from "../../src/session/index.ts";
import { createTestEnv, testServer, uniqueId } from "../support/temporal-env.ts";
import { shippedAgent } from "../support/shipped-agents.ts";

const reasoner = shippedAgent("cognitive-reasoner");

describe("a dev server restarted between two turns", () => {
  const dir = mkdtempSync(join(tmpdir(), "agentdock-restart-"));
  let server: DevServer | undefined;
  after(async () => {
    await server?.stop();
    rmSync(dir, { recursive: true, force: true });
  });

  it("keeps the session: the second turn continues from the first (same SQLite file)", async () => {
    const port = await freePort();
    const options = {
      cliPath: testServer().cliPath,
      dbFile: join(dir, "temporal.db"),
      port,
      uiPort: false as const,
      searchAttributes: sessionSearchAttributes,
    };
    server = await startDevServer(options);
    const sessionId = uniqueId("restart");

    const before = await createTestEnv({ address: server.address });
    await before.startWorker();
    const first = await before.sessions.sendWithStart(
      { template: reasoner, sessionId },
      "Please evaluate plan A",
      "m1",
    );
    assert.equal(first.turn, 1);
    await before.close();

    await server.stop();
    server = await startDevServer(options);

    // A new client and worker on the same task queue: the session's workflow is bound to it.
    const afterRestart = await createTestEnv({
      address: server.address,
      taskQueue: before.taskQueue,
    });
    try {
      await afterRestart.startWorker();
      const second = await afterRestart.sessions.send(
        sessionId,
        "Thanks. Now compare plan A versus plan B",
        "m2",
      );
      assert.equal(second.turn, 2);
      assert.equal(second.error, undefined);
      const users = (await afterRestart.sessions.history(sessionId)).filter(
        (message) => message.role === "user",
      );
      assert.deepEqual(
        users.map((message) => message.content),
        ["Please evaluate plan A", "Thanks. Now compare plan A versus plan B"],
      );
      assert.equal(
        second.state.toolCount,
        first.state.toolCount + second.toolCalls.filter((call) => call.status === "ok").length,
      );
    } finally {
      await afterRestart.close();
    }
  });
});
