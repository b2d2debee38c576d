import assert from "node:assert/strict";
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { setTimeout as sleep } from "node:timers/promises";
import { after, describe, it } from "node:test";
import { parseAgentTemplate } from "../../src/agents/index.ts";
import { startDevServer, type DevServer } from "../../src/dev-server/dev-server.ts";
import { freePort } from "../../src/dev-server/free-port.ts";
import { sessionSearchAttributes, type ApprovalRecord } from "../../src/session/index.ts";
import type { SessionClient } from "../../src/client/index.ts";
import { toolCatalogueEntries } from "../../src/tools/index.ts";
import { createTestEnv, testServer, uniqueId } from "../support/temporal-env.ts";

const demo = parseAgentTemplate(
  JSON.parse(readFileSync("docs/examples/approval-demo/template.json", "utf8")) as unknown,
  { tools: toolCatalogueEntries },
);

async function pendingOf(sessions: SessionClient, sessionId: string): Promise<ApprovalRecord> {
  const deadline = Date.now() + 60_000;
  while (Date.now() < deadline) {
    const [first] = (await sessions.approvals(sessionId).catch(() => undefined))?.pending ?? [];
    if (first !== undefined) return first;
    await sleep(200);
  }
  return assert.fail(`no approval pending in ${sessionId} within 60 s`);
}

describe("a dev server restarted while a tool call waits for approval", () => {
  const dir = mkdtempSync(join(tmpdir(), "agentdock-approval-restart-"));
  let server: DevServer | undefined;
  after(async () => {
    await server?.stop();
    rmSync(dir, { recursive: true, force: true });
  });

  it("still waits after the restart (same SQLite file), and the approval given then completes the turn", async () => {
    const options = {
      cliPath: testServer().cliPath,
      dbFile: join(dir, "temporal.db"),
      port: await freePort(),
      uiPort: false as const,
      searchAttributes: sessionSearchAttributes,
    };
    server = await startDevServer(options);
    const sessionId = uniqueId("approval-restart");
    const before = await createTestEnv({ address: server.address });
    await before.startWorker();
    // Sent as an update (as the CLI, HTTP and console send); its caller goes away with the
    // server, and the same message id asks for the turn's result after the restart.
    // (A first message sent by signal hits a known replay defect: test/replay/signal-started-session.test.ts.)
    const first = before.sessions.sendWithStart(
      { template: demo, sessionId },
      "Summarize our launch plan",
      "m1",
    );
    first.catch(() => undefined);
    const request = await pendingOf(before.sessions, sessionId);
    await before.close();

    await server.stop();
    server = await startDevServer(options);
    const afterRestart = await createTestEnv({
      address: server.address,
      taskQueue: before.taskQueue,
    });
    try {
      await afterRestart.startWorker();
      const still = await pendingOf(afterRestart.sessions, sessionId);
      assert.equal(still.approvalId, request.approvalId);
      assert.equal((await afterRestart.sessions.state(sessionId)).status, "awaiting_approval");
      await afterRestart.sessions.decideApproval(sessionId, {
        approvalId: request.approvalId,
        decision: "approve",
        by: "after the restart",
      });
      // The same message id answers with the turn that waited (never a second turn).
      const result = await afterRestart.sessions.send(sessionId, "Summarize our launch plan", "m1");
      assert.equal(result.turn, 1);
      assert.deepEqual(
        result.toolCalls.map((call) => [call.toolName, call.status]),
        [
          ["think", "ok"],
          ["summarize", "ok"],
        ],
      );
    } finally {
      await afterRestart.close();
    }
  });
});
