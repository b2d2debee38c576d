import assert from "node:assert/strict";
import { execFile } from "node:child_process";
import { setTimeout as sleep } from "node:timers/promises";
import { promisify } from "node:util";
import { after, before, describe, it } from "node:test";
import { Client, type Connection } from "@temporalio/client";
import { SessionClient } from "../../src/client/index.ts";
import { sessionSearchAttributes } from "../../src/session/search-attributes.ts";
import { connectClient } from "../../src/temporal-connection.ts";
import { spawnCli, type CliProcess } from "../support/cli-process.ts";
import { shippedAgent } from "../support/shipped-agents.ts";
import { testServer, uniqueId } from "../support/temporal-env.ts";
import { workerEnv } from "../support/worker-process.ts";

// `worker` and `serve` pointed at a namespace that lacks the sessions' search attributes (a
// namespace created with `temporal operator namespace create` has none). Before the check they
// started fine and the first message failed with the server's raw
// "no mapping defined for search attribute AgentId".

const run = promisify(execFile);

/** A new namespace, created as an operator would, answering describeNamespace. */
async function freshNamespace(connection: Connection): Promise<string> {
  const namespace = uniqueId("bare-ns");
  const { address, cliPath } = testServer();
  await run(cliPath, [
    "operator",
    "namespace",
    "create",
    "--address",
    address,
    "--namespace",
    namespace,
  ]);
  const deadline = Date.now() + 30_000;
  for (;;) {
    try {
      await connection.workflowService.describeNamespace({ namespace });
      return namespace;
    } catch (error) {
      if (Date.now() > deadline) throw error;
      await sleep(250);
    }
  }
}

async function customAttributes(connection: Connection, namespace: string): Promise<string[]> {
  const { customAttributes } = await connection.operatorService.listSearchAttributes({ namespace });
  return Object.keys(customAttributes).sort();
}

describe("worker and serve check the namespace's search attributes at start", () => {
  let connection: Connection;
  const processes: CliProcess[] = [];
  const server = testServer();

  function start(command: "worker" | "serve", namespace: string, env: Record<string, string>) {
    const args =
      command === "serve" ? ["src/cli.ts", "serve", "--port", "0"] : ["src/cli.ts", "worker"];
    const child = spawnCli(process.execPath, args, {
      env: {
        ...process.env,
        ...workerEnv(
          { address: server.address, namespace },
          uniqueId("sa-queue"),
          "http://127.0.0.1:1",
        ),
        ...env,
      },
    });
    processes.push(child);
    return child;
  }

  before(async () => {
    connection = await connectClient({ address: server.address });
  });

  after(async () => {
    for (const child of processes) await child.kill();
    await connection.close();
  });

  it("a worker registers the missing attributes and the first message is answered", async () => {
    const namespace = await freshNamespace(connection);
    const taskQueue = uniqueId("sa-queue");
    const worker = start("worker", namespace, { AGENTDOCK_TASK_QUEUE: taskQueue });
    await worker.waitFor(/worker: polling task queue/, 90_000);

    const sessions = new SessionClient(new Client({ connection, namespace }), taskQueue);
    const reply = await sessions.sendWithStart(
      { template: shippedAgent("general"), sessionId: uniqueId("sa-session") },
      "Hello",
      "m1",
    );
    assert.equal(reply.error, undefined);
    assert.ok(reply.text.length > 0, "the scripted model answered");
    assert.deepEqual(
      await customAttributes(connection, namespace),
      Object.keys(sessionSearchAttributes).sort(),
    );
    assert.match(worker.output(), /registered search attributes AgentId, ActiveStep/);
  });

  for (const command of ["worker", "serve"] as const) {
    it(`${command} refuses to start when registering is turned off, printing the exact command to run`, async () => {
      const namespace = await freshNamespace(connection);
      const child = start(command, namespace, { AGENTDOCK_REGISTER_SEARCH_ATTRIBUTES: "false" });
      assert.equal(await child.exited(90_000), 1);
      const output = child.output();
      assert.doesNotMatch(output, /polling task queue|HTTP API on/);
      assert.match(output, new RegExp(`namespace ${namespace} lacks the search attributes`));
      const commandLine = /^\s*(temporal operator search-attribute create .*)$/m.exec(output)?.[1];
      assert.ok(commandLine !== undefined, `a command to run in:\n${output}`);
      assert.deepEqual(await customAttributes(connection, namespace), [], "nothing registered");

      // The printed command, run as printed, is all it takes.
      const [cli, ...args] = commandLine.trim().split(/\s+/);
      assert.equal(cli, "temporal");
      await run(server.cliPath, args);
      assert.deepEqual(
        await customAttributes(connection, namespace),
        Object.keys(sessionSearchAttributes).sort(),
      );
      const again = start(command, namespace, { AGENTDOCK_REGISTER_SEARCH_ATTRIBUTES: "false" });
      await again.waitFor(command === "worker" ? /polling task queue/ : /HTTP API on/, 90_000);
    });
  }

  it("refuses an attribute registered with another type, naming it and both types", async () => {
    const namespace = await freshNamespace(connection);
    const { address, cliPath } = testServer();
    // Sessions need AgentId as a Keyword.
    await run(cliPath, [
      ...["operator", "search-attribute", "create", "--address", address],
      ...["--namespace", namespace, "--name", "AgentId", "--type", "Text"],
    ]);
    const worker = start("worker", namespace, {});
    assert.equal(await worker.exited(90_000), 1);
    assert.match(
      worker.output(),
      new RegExp(
        `AgentId is registered in namespace ${namespace} as Text, but sessions need Keyword`,
      ),
    );
  });
});
