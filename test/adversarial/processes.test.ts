import assert from "node:assert/strict";
import { mkdtempSync, readdirSync, readFileSync, readlinkSync, rmSync } from "node:fs";
import { createServer, type Server } from "node:net";
import { tmpdir } from "node:os";
import { delimiter, join } from "node:path";
import { setTimeout as sleep } from "node:timers/promises";
import { after, before, describe, it } from "node:test";
import { freePort } from "../../src/dev-server/free-port.ts";
import { spawnCli, startServe, type CliProcess } from "../support/cli-process.ts";
import { readSse } from "../support/sse-client.ts";
import { shippedAgent } from "../support/shipped-agents.ts";
import { createTestEnv, testServer, uniqueId, type TestEnv } from "../support/temporal-env.ts";

// The processes as systemd, `docker stop` or an impatient user treat them: SIGTERM to the main
// process, kill -9 of a parent. Nothing may crash, hang, or outlive its parent.

const server = testServer();
const dir = mkdtempSync(join(tmpdir(), "agentdock-processes-"));
const running: CliProcess[] = [];

/** PATH with the system's Node 20 first, as on a machine that ships it (npm puts 24 first). */
const node20Path = [
  "/usr/bin",
  ...(process.env["PATH"] ?? "")
    .split(delimiter)
    .filter((entry) => !entry.includes("node_modules")),
].join(delimiter);

function track(child: CliProcess): CliProcess {
  running.push(child);
  return child;
}

/** Pids of processes whose command line contains `needle` (Linux /proc). */
function pidsWith(needle: string): number[] {
  const pids: number[] = [];
  for (const entry of readdirSync("/proc")) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      const cmdline = readFileSync(`/proc/${entry}/cmdline`, "utf8").replaceAll("\0", " ");
      if (cmdline.includes(needle)) pids.push(Number(entry));
    } catch {
      // The process ended while we looked.
    }
  }
  return pids;
}

async function gone(pids: readonly number[], timeoutMs: number): Promise<number[]> {
  const deadline = Date.now() + timeoutMs;
  let alive = [...pids];
  while (Date.now() < deadline) {
    // A zombie (ended, not yet reaped by whoever adopted it) counts as gone.
    alive = alive.filter((pid) => {
      try {
        return !/^\d+ \(.*\) Z/.test(readFileSync(`/proc/${pid}/stat`, "utf8"));
      } catch {
        return false;
      }
    });
    if (alive.length === 0) return [];
    await sleep(100);
  }
  return alive;
}

async function refused(url: string): Promise<boolean> {
  try {
    await fetch(`${url}/healthz`, { signal: AbortSignal.timeout(2_000) });
    return false;
  } catch {
    return true;
  }
}

const serveEnv = (taskQueue: string): NodeJS.ProcessEnv => ({
  ...process.env,
  TEMPORAL_ADDRESS: server.address,
  TEMPORAL_NAMESPACE: server.namespace,
  AGENTDOCK_TASK_QUEUE: taskQueue,
});

after(async () => {
  for (const child of running) await child.kill();
  for (const pid of pidsWith(dir)) {
    try {
      process.kill(pid, "SIGKILL");
    } catch {
      // Already gone.
    }
  }
  rmSync(dir, { recursive: true, force: true });
});

describe("serve under SIGTERM", { timeout: 180_000 }, () => {
  let env: TestEnv;
  const sessionId = uniqueId("sigterm");
  before(async () => {
    env = await createTestEnv();
    await env.startWorker();
    await env.sessions.sendWithStart(
      { template: shippedAgent("cognitive-reasoner"), sessionId },
      "hello",
      "m1",
    );
  });
  after(() => env.close());

  it("stops gracefully with a live viewer and a waiting chat: streams end cleanly, exit 0", async () => {
    // No worker serves this API's task queue: a new chat waits for its session to accept it.
    const { process: serve, url } = await startServe(serveEnv(uniqueId("no-worker")));
    track(serve);
    const events = await fetch(`${url}/api/sessions/${sessionId}/events`);
    assert.equal(events.status, 200);
    const viewer = (async () => {
      let count = 0;
      for await (const event of readSse(events.body ?? new ReadableStream())) {
        if (event.data !== "") count++;
      }
      return `${count} events, then the end`;
    })().catch((error: unknown) => `cut: ${String(error)}`);
    const chat = fetch(`${url}/api/chat/cognitive-reasoner`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({
        id: uniqueId("waiting"),
        messages: [{ id: "m1", role: "user", parts: [{ type: "text", text: "hello" }] }],
      }),
    }).then(
      (response) => `answered ${response.status}`,
      (error: unknown) => `cut: ${String(error)}`,
    );
    await sleep(1_500);
    const stopped = performance.now();
    serve.child.kill("SIGTERM");
    const code = await serve.exited(20_000);
    assert.equal(code, 0, serve.output());
    assert.doesNotMatch(serve.output(), /Channel has been shut down|Error|at .*\.ts:\d+/);
    assert.ok(
      performance.now() - stopped < 10_000,
      `stopped within the grace time:\n${serve.output()}`,
    );
    assert.match(await viewer, /^[1-9]\d* events, then the end$/);
    // Its turn is durable: cut after the grace time, the client re-sends the same message id.
    assert.match(await chat, /^(answered 503|cut: )/);
    assert.ok(await refused(url));
  });

  it("bin/agentdock-temporal under Node 20 forwards SIGTERM to its Node 24 child and exits 0", async () => {
    const marker = join(dir, "launcher-marker");
    const { process: serve, url } = await startServe(
      { ...serveEnv(env.taskQueue), PATH: node20Path },
      ["--dir", marker],
      { file: "bin/agentdock-temporal", args: [] },
    );
    track(serve);
    // The launcher itself runs on Node 20, as `#!/usr/bin/env node` finds it on such a machine.
    assert.doesNotMatch(readlinkSync(`/proc/${serve.child.pid}/exe`), /node_modules/);
    serve.child.kill("SIGTERM");
    const code = await serve.exited(20_000);
    assert.equal(code, 0, serve.output());
    assert.ok(await refused(url), "the child still serves");
    assert.deepEqual(await gone(pidsWith(marker), 5_000), [], "a process outlived the launcher");
  });

  it("npx agentdock-temporal serve takes the launcher and its child down on SIGTERM, port closed", async () => {
    const marker = join(dir, "npx-marker");
    const { process: serve, url } = await startServe(
      { ...serveEnv(env.taskQueue), PATH: node20Path },
      ["--dir", marker],
      { file: "npx", args: ["agentdock-temporal"] },
    );
    track(serve);
    serve.child.kill("SIGTERM");
    // npm passes SIGTERM to the shell it runs the bin with; the shell dies of it without passing
    // it on, and npm then ends itself with the shell's signal: its status is npm's, not ours.
    const code = await serve.exited(20_000);
    assert.ok(code === 0 || code === "SIGTERM", `${code}\n${serve.output()}`);
    assert.deepEqual(await gone(pidsWith(marker), 10_000), [], "a process outlived npx");
    assert.ok(await refused(url), "the child still serves");
  });
});

describe("dev killed with kill -9", { timeout: 240_000 }, () => {
  const devEnv = (extra: NodeJS.ProcessEnv = {}): NodeJS.ProcessEnv => ({
    ...process.env,
    TEMPORAL_CLI: server.cliPath,
    AGENTDOCK_TASK_QUEUE: uniqueId("dev-queue"),
    ...extra,
  });
  const dev = (dbFile: string, port: number, env: NodeJS.ProcessEnv): CliProcess =>
    track(
      spawnCli(
        process.execPath,
        [
          "src/cli.ts",
          "dev",
          "--db",
          dbFile,
          "--port",
          String(port),
          "--ui-port",
          "0",
          "--console-port",
          "0",
        ],
        { env },
      ),
    );

  it("takes its Temporal dev server down with it", async () => {
    const dbFile = join(dir, "pdeathsig.db");
    const first = dev(dbFile, await freePort(), devEnv());
    await first.waitFor(/Worker: task queue/, 120_000);
    const servers = pidsWith(`--db-filename ${dbFile}`);
    assert.ok(servers.length > 0, "the dev server runs");
    first.child.kill("SIGKILL");
    assert.deepEqual(await gone(servers, 10_000), [], "the dev server outlived its parent");
  });

  it("the next dev on the same database and port replaces a server left behind", async () => {
    const dbFile = join(dir, "orphan.db");
    const port = await freePort();
    // Without setpriv on PATH nothing ties the server to its parent: it is left behind.
    const first = dev(dbFile, port, devEnv({ PATH: join(dir, "empty-path") }));
    await first.waitFor(/Worker: task queue/, 120_000);
    const orphans = pidsWith(`--db-filename ${dbFile}`);
    first.child.kill("SIGKILL");
    await first.exited();
    await sleep(500);
    assert.ok((await gone(orphans, 1)).length > 0, "the server was left behind");

    const second = dev(dbFile, port, devEnv());
    await second.waitFor(new RegExp(`Temporal dev server: 127\\.0\\.0\\.1:${port}`), 120_000);
    assert.deepEqual(await gone(orphans, 15_000), [], "the old server is stopped");
    second.child.kill("SIGTERM");
    assert.equal(await second.exited(30_000), 0, second.output());
  });

  it("refuses a port another program holds, naming the port and that program", async () => {
    const holder: Server = createServer();
    const port = await freePort();
    await new Promise<void>((resolve) => holder.listen(port, "127.0.0.1", resolve));
    try {
      const blocked = dev(join(dir, "blocked.db"), port, devEnv());
      const code = await blocked.exited(60_000);
      assert.equal(code, 1, blocked.output());
      assert.match(blocked.output(), new RegExp(`port ${port} .*pid ${process.pid}`));
    } finally {
      holder.close();
    }
  });
});
