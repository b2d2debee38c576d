import assert from "node:assert/strict";
import { spawn } from "node:child_process";
import { describe, it } from "node:test";
import { fileURLToPath } from "node:url";
import { freePort } from "../../src/dev-server/free-port.ts";
import { connectClient } from "../../src/temporal-connection.ts";
import { testServer } from "../support/temporal-env.ts";

// The Temporal client retried a failed call from a timer; when the connection was closed before
// that timer fired (Ctrl-C of `npm start`, a test's teardown), the retry threw "Channel has been
// shut down" from the timer, an uncaught exception that killed the process. Before the fix the
// child below died with exit code 3 and "uncaught: Channel has been shut down".

const connectionModule = fileURLToPath(
  new URL("../../src/temporal-connection.ts", import.meta.url),
);

/** A child process that sends a call to a closed port, closes its connection, and reports. */
function closeWhileRetrying(port: number): Promise<{ code: number | null; output: string }> {
  const script = `
    const { lazyClient } = await import(${JSON.stringify(connectionModule)});
    process.on("uncaughtException", (error) => {
      console.log("uncaught: " + error.message);
      process.exit(3);
    });
    const connection = lazyClient({ address: "127.0.0.1:${port}" });
    const call = connection.workflowService.getSystemInfo({}).then(
      () => "answered",
      (error) => "rejected: " + error.message,
    );
    // The first attempt fails at once (nothing listens); its retry waits on a timer.
    setTimeout(() => void connection.close(), 50);
    const timeout = new Promise((resolve) => setTimeout(() => resolve("still pending"), 5000));
    console.log(await Promise.race([call, timeout]));
    // Longer than any retry delay: a retry firing late would still crash the process here.
    await new Promise((resolve) => setTimeout(resolve, 1500));
    console.log("alive");
  `;
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, ["--input-type=module", "-e", script], {
      stdio: ["ignore", "pipe", "pipe"],
    });
    let output = "";
    child.stdout.on("data", (chunk: Buffer) => (output += chunk.toString()));
    child.stderr.on("data", (chunk: Buffer) => (output += chunk.toString()));
    const timer = setTimeout(() => child.kill("SIGKILL"), 20_000);
    child.on("error", reject);
    child.on("exit", (code) => {
      clearTimeout(timer);
      resolve({ code, output });
    });
  });
}

describe("closing a client connection ends its retries", { timeout: 60_000 }, () => {
  it("a call waiting to retry when its connection closes fails with its last error, and the process lives on", async () => {
    const { code, output } = await closeWhileRetrying(await freePort());
    assert.doesNotMatch(output, /uncaught|Channel has been shut down/);
    assert.match(output, /rejected: 14 UNAVAILABLE/);
    assert.match(output, /alive/);
    assert.equal(code, 0);
  });

  it("calls on an open connection are answered and refused as before", async () => {
    const server = testServer();
    const connection = await connectClient({ address: server.address });
    try {
      const info = await connection.workflowService.getSystemInfo({});
      assert.ok(info.capabilities !== undefined && info.capabilities !== null);
      await assert.rejects(
        connection.workflowService.describeWorkflowExecution({
          namespace: server.namespace,
          execution: { workflowId: "no-such-session" },
        }),
        /5 NOT_FOUND/,
      );
    } finally {
      await connection.close();
    }
  });
});
