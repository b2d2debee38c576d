import assert from "node:assert/strict";
import { spawn } from "node:child_process";
import { existsSync, mkdtempSync, readFileSync, rmSync } from "node:fs";
import { createServer } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { after, describe, it } from "node:test";
import { startSearchServer } from "../faults/fault-support.ts";

/** Runs `npm start`'s command as a user would, with the chat's input piped in. */
async function start(
  args: string[],
  input: string,
  env: Record<string, string> = {},
): Promise<{ code: number | null; output: string }> {
  const child = spawn(process.execPath, ["src/cli.ts", "start", ...args], {
    env: { ...process.env, ...env },
    stdio: ["pipe", "pipe", "pipe"],
  });
  let output = "";
  child.stdout.on("data", (chunk: Buffer) => {
    output += chunk.toString();
  });
  child.stderr.on("data", (chunk: Buffer) => {
    output += chunk.toString();
  });
  child.stdin.end(input);
  const code = await new Promise<number | null>((resolve) => child.once("exit", resolve));
  return { code, output };
}

describe("npm start: embedded dev server, worker and a chat", () => {
  const dir = mkdtempSync(join(tmpdir(), "agentdock-start-"));
  after(() => {
    rmSync(dir, { recursive: true, force: true });
  });
  const common = [
    "--db",
    join(dir, "dev.db"),
    "--port",
    "0",
    "--ui-port",
    "0",
    "--console-port",
    "0",
  ];

  it("chats with the cognitive reasoner, showing the step change and tool calls as they happen, and the Web UI link", async () => {
    const { code, output } = await start(common, "Please evaluate my plan to learn Rust\n");
    assert.equal(code, 0, output);
    assert.match(output, /New session (\S+) with Cognitive Reasoner/);
    assert.match(
      output,
      /Web UI: http:\/\/127\.0\.0\.1:\d+\/namespaces\/default\/workflows\/session-\S+/,
    );
    const order = [
      "→ step EvaluationMode",
      "⚙ tool critique",
      "⚙ tool debate",
      "⚙ tool reflect",
      "Cognitive Reasoner ›",
      "[turn 1",
    ];
    const positions = order.map((marker) => output.indexOf(marker));
    assert.ok(
      positions.every((position) => position >= 0),
      `missing a marker in:\n${output}`,
    );
    assert.deepEqual(
      positions,
      [...positions].sort((a, b) => a - b),
      "printed in order",
    );
  });

  it("keeps the worker's warnings out of the chat: one short line there, the full entry with its stack trace in worker.log", async () => {
    // A search provider that refuses every query (SearXNG's 403 when its JSON API is off): the
    // research step's search fails and the worker logs a warning with a stack trace.
    const search = await startSearchServer(() => ({ status: 403, body: "forbidden" }));
    const { code, output } = await start(common, "Please research remote work trends\n", {
      SEARCH_PROVIDER: "searxng",
      SEARXNG_URL: search.url,
    }).finally(() => search.close());
    assert.equal(code, 0, output);
    const logFile = join(dir, "worker.log");
    assert.ok(output.includes(`worker log: ${logFile}`), output);
    assert.doesNotMatch(output, /^\s+at /m, "no stack trace in the chat");
    const notices = output.split("\n").filter((line) => line.includes("worker warning:"));
    assert.equal(notices.length, 1, output);
    assert.ok((notices[0] ?? "").length <= 160, notices[0]);
    assert.match(output, /search failed: SearXNG at \S+ answered HTTP 403/);
    const log = readFileSync(logFile, "utf8");
    assert.match(log, /\[WARN\] Activity failed/);
    assert.match(log, /^\s+at runSearchTool /m);
  });

  it("keeps the session after the chat ends and resumes it with --session, recapping the last exchange first", async () => {
    const first = await start(common, "hello\n");
    const id = /New session (\S+) with/.exec(first.output)?.[1];
    assert.ok(id !== undefined, first.output);
    assert.match(first.output, new RegExp(`Resume it with: npm start -- --session ${id}`));
    const resumed = await start([...common, "--session", id], "Please compare Rust versus Go\n");
    assert.equal(resumed.code, 0, resumed.output);
    assert.match(resumed.output, new RegExp(`Resuming session ${id}`));
    // The recap of the last exchange comes before the new turn.
    assert.match(resumed.output, /Last exchange:\n {2}you › hello\n {2}Cognitive Reasoner › \S/);
    assert.ok(
      resumed.output.indexOf("Last exchange:") < resumed.output.indexOf("→ step ComparisonMode"),
      resumed.output,
    );
    assert.match(resumed.output, /→ step ComparisonMode/);
    assert.match(resumed.output, /\[turn 2 /);
  });

  it("refuses to resume a session that does not exist, with a clear message", async () => {
    const { code, output } = await start([...common, "--session", "no-such-session"], "");
    assert.equal(code, 1);
    assert.match(output, /no running session "no-such-session"/);
  });

  it("prints the console's address once, beside the Web UI link", async () => {
    const { code, output } = await start(common, "hello\n");
    assert.equal(code, 0, output);
    assert.equal(output.match(/Console: http:\/\/127\.0\.0\.1:\d+\//g)?.length, 1, output);
  });

  it("refuses a --console-port another program holds before starting anything, naming the holder", async () => {
    const holder = createServer();
    await new Promise<void>((resolve) => holder.listen(0, "127.0.0.1", resolve));
    const address = holder.address();
    assert.ok(address !== null && typeof address === "object");
    const db = join(dir, "taken.db");
    try {
      const { code, output } = await start(
        ["--db", db, "--port", "0", "--ui-port", "0", "--console-port", String(address.port)],
        "",
      );
      assert.equal(code, 1, output);
      assert.match(
        output,
        new RegExp(
          `port ${address.port} on 127\\.0\\.0\\.1 \\(--console-port\\) is in use by pid ${process.pid} .*choose another --console-port \\(0 picks a free one\\)`,
        ),
      );
      assert.doesNotMatch(output, /starting the Temporal dev server/);
      assert.equal(existsSync(db), false, "no database created");
    } finally {
      holder.close();
    }
  });

  it("rejects --console-port and --api-port that disagree", async () => {
    const { code, output } = await start(["--console-port", "8081", "--api-port", "8082"], "");
    assert.equal(code, 2, output);
    assert.match(output, /--console-port 8081 and --api-port 8082 disagree/);
  });

  it("rejects a bad option value naming the option", async () => {
    const { code, output } = await start(["--port", "70000"], "");
    assert.equal(code, 2);
    assert.match(output, /--port: /);
  });
});
