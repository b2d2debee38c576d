import assert from "node:assert/strict";
import { after, describe, it } from "node:test";
import { spawnCli, type CliProcess } from "../support/cli-process.ts";
import { testServer, uniqueId } from "../support/temporal-env.ts";
import { workerEnv } from "../support/worker-process.ts";
import { ExitCode } from "../../src/cli/exit-codes.ts";
import { CACHED_SESSION_MIB, WORKER_BASE_MIB } from "../../src/worker/workflow-cache-size.ts";

// The workflow cache is sized from the memory the worker may use (AGENTDOCK_WORKER_MEMORY_MB),
// not a fixed count, and the worker says what it chose when it starts.
describe("the worker sizes its session cache from AGENTDOCK_WORKER_MEMORY_MB", () => {
  const processes: CliProcess[] = [];
  const start = (memory: string): CliProcess => {
    const child = spawnCli(process.execPath, ["src/cli.ts", "worker"], {
      env: {
        ...process.env,
        ...workerEnv(testServer(), uniqueId("memory-queue"), "http://127.0.0.1:1"),
        AGENTDOCK_WORKER_MEMORY_MB: memory,
      },
    });
    processes.push(child);
    return child;
  };

  after(async () => {
    for (const child of processes) await child.kill();
  });

  it("prints the cache size the budget allows at start, then polls", async () => {
    const worker = start("1024");
    const expected = Math.floor((1024 - WORKER_BASE_MIB) / CACHED_SESSION_MIB);
    const [line] = await worker.waitFor(/worker: workflow cache: .*\n/, 90_000);
    assert.match(
      line,
      new RegExp(`${expected} sessions \\(memory budget 1024 MiB: AGENTDOCK_WORKER_MEMORY_MB`),
    );
    await worker.waitFor(/worker: polling task queue/, 90_000);
  });

  it("refuses a budget that is not a number before connecting, naming the variable and an example", async () => {
    const worker = start("2GB");
    assert.equal(await worker.exited(60_000), ExitCode.usage);
    assert.match(
      worker.output(),
      /AGENTDOCK_WORKER_MEMORY_MB="2GB" is not a number .*AGENTDOCK_WORKER_MEMORY_MB=2048/,
    );
    assert.doesNotMatch(worker.output(), /polling task queue/);
  });
});
