import assert from "node:assert/strict";
import { spawnSync } from "node:child_process";
import { existsSync, mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { delimiter, join } from "node:path";
import { setTimeout as sleep } from "node:timers/promises";
import { after, before, describe, it } from "node:test";

/** tmux on PATH, or undefined: CI installs it (.ci/run); elsewhere the test says it is skipped. */
const tmux = (process.env["PATH"] ?? "")
  .split(delimiter)
  .map((dir) => join(dir, "tmux"))
  .find((file) => existsSync(file));

// A private tmux server (its own socket), so the test never touches a person's tmux sessions.
const socket = `agentdock-test-${process.pid}`;
const target = "chat";

function tmuxRun(...args: string[]): string {
  assert.ok(tmux !== undefined);
  const run = spawnSync(tmux, ["-L", socket, ...args], { encoding: "utf8", timeout: 10_000 });
  if (run.status !== 0) throw new Error(`tmux ${args.join(" ")}: ${run.stderr}`);
  return run.stdout;
}

/** What the terminal shows, scrollback included, with wrapped lines joined. */
function screen(): string {
  return tmuxRun("capture-pane", "-p", "-J", "-S", "-", "-t", target);
}

async function waitForScreen(
  found: (text: string) => boolean,
  what: string,
  timeoutMs = 90_000,
): Promise<string> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const text = screen();
    if (found(text)) return text;
    if (Date.now() > deadline)
      throw new Error(`no ${what} within ${timeoutMs} ms; screen:\n${text}`);
    await sleep(100);
  }
}

/** Direct children of a process (Linux /proc), so the test can follow node → dev server. */
function childPids(pid: number): number[] {
  try {
    return readFileSync(`/proc/${pid}/task/${pid}/children`, "utf8")
      .trim()
      .split(/\s+/)
      .filter((field) => field !== "")
      .map(Number);
  } catch {
    return [];
  }
}

function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
  } catch {
    return false;
  }
  // An exited child its parent has not reaped yet is gone for every purpose here.
  const stat = readFileSync(`/proc/${pid}/stat`, "utf8");
  return !/^\d+ \(.*\) Z /.test(stat);
}

describe(
  "the terminal chat in a real pseudo-terminal (tmux)",
  { skip: tmux === undefined ? "tmux is not on PATH (CI installs it: .ci/run)" : false },
  () => {
    const dir = mkdtempSync(join(tmpdir(), "agentdock-tty-"));
    let cliPid: number | undefined;
    let serverPid: number | undefined;

    before(() => {
      const command = [
        process.execPath,
        "src/cli.ts",
        "start",
        "--db",
        join(dir, "dev.db"),
        "--port",
        "0",
        "--ui-port",
        "0",
        "--console-port",
        "0",
      ].join(" ");
      // The shell stays after the CLI exits so the screen (and its exit status) can be read.
      tmuxRun(
        "new-session",
        "-d",
        "-s",
        target,
        "-x",
        "200",
        "-y",
        "50",
        "-c",
        process.cwd(),
        `${command}; echo "chat exited with $?"; sleep 300`,
      );
    });

    after(() => {
      try {
        tmuxRun("kill-server");
      } catch {
        // The server is already gone.
      }
      for (const pid of [cliPid, serverPid]) {
        if (pid !== undefined && isAlive(pid)) process.kill(pid, "SIGKILL");
      }
      rmSync(dir, { recursive: true, force: true });
    });

    it(
      "echoes typed text, streams the answer with its footer, keeps stack traces off screen, and Ctrl-C leaves no process behind",
      { timeout: 240_000 },
      async () => {
        await waitForScreen((text) => text.includes("Type a message"), "chat prompt");
        const shellPid = Number(tmuxRun("list-panes", "-t", target, "-F", "#{pane_pid}").trim());
        cliPid = childPids(shellPid)[0];
        assert.ok(cliPid !== undefined, "the CLI runs in the pane");
        serverPid = childPids(cliPid).find((pid) =>
          readFileSync(`/proc/${pid}/cmdline`, "utf8").includes("start-dev"),
        );
        assert.ok(serverPid !== undefined, "the dev server is a child of the CLI");

        // Typed, not yet sent: the text is on screen after the prompt.
        tmuxRun("send-keys", "-t", target, "-l", "Please evaluate my plan to learn Rust");
        await waitForScreen(
          (text) => text.includes("you › Please evaluate my plan to learn Rust"),
          "the typed text echoed",
          10_000,
        );
        tmuxRun("send-keys", "-t", target, "Enter");
        const first = await waitForScreen((text) => text.includes("[turn 1 "), "turn 1's footer");
        const order = [
          "→ step EvaluationMode",
          "⚙ tool critique",
          "Cognitive Reasoner ›",
          "[turn 1 ",
        ];
        const positions = order.map((marker) => first.indexOf(marker));
        assert.ok(
          positions.every((position) => position >= 0),
          first,
        );
        assert.deepEqual(
          positions,
          [...positions].sort((a, b) => a - b),
          first,
        );

        // Offline, the research step is skipped (no search provider): still no stack trace.
        tmuxRun("send-keys", "-t", target, "-l", "Please research remote work trends");
        tmuxRun("send-keys", "-t", target, "Enter");
        const second = await waitForScreen((text) => text.includes("[turn 2 "), "turn 2's footer");
        assert.doesNotMatch(second, /^\s+at /m, "no stack trace on screen");
        assert.ok(
          second.split("\n").filter((line) => line.includes("worker warning:")).length <= 1,
          second,
        );

        tmuxRun("send-keys", "-t", target, "C-c");
        const end = await waitForScreen(
          (text) => text.includes("chat exited with"),
          "the chat's exit",
          30_000,
        );
        assert.match(end, /chat exited with 0/);
        assert.match(end, /Session \S+ is kept/);
        const deadline = Date.now() + 10_000;
        while ((isAlive(cliPid) || isAlive(serverPid)) && Date.now() < deadline) await sleep(100);
        assert.equal(isAlive(cliPid), false, "the CLI is gone");
        assert.equal(isAlive(serverPid), false, "the dev server is gone");
      },
    );
  },
);
