import assert from "node:assert/strict";
import { spawn, type ChildProcess } from "node:child_process";
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { setTimeout as sleep } from "node:timers/promises";
import { after, before, describe, it } from "node:test";
import { replayHistoriesDir } from "../support/history.ts";
import { createTestEnv, testServer, uniqueId, type TestEnv } from "../support/temporal-env.ts";

interface Run {
  code: number | null;
  stdout: string;
  stderr: string;
}

const unreachableEnv = { TEMPORAL_ADDRESS: "127.0.0.1:1" };

/** Starts `node src/cli.ts …` as a user would; `env` is added to this process's environment. */
function spawnCli(args: string[], env: Record<string, string> = {}): ChildProcess {
  return spawn(process.execPath, ["src/cli.ts", ...args], {
    env: { ...process.env, ...unreachableEnv, ...env },
    stdio: ["pipe", "pipe", "pipe"],
  });
}

async function finish(child: ChildProcess, input = ""): Promise<Run> {
  let stdout = "";
  let stderr = "";
  child.stdout?.on("data", (chunk: Buffer) => (stdout += chunk.toString()));
  child.stderr?.on("data", (chunk: Buffer) => (stderr += chunk.toString()));
  child.stdin?.end(input);
  const code = await new Promise<number | null>((resolve) => child.once("exit", resolve));
  return { code, stdout, stderr };
}

function cli(args: string[], env: Record<string, string> = {}, input = ""): Promise<Run> {
  return finish(spawnCli(args, env), input);
}

/** Resolves with the output so far once `marker` appears in it (stdout or stderr). */
function waitForOutput(child: ChildProcess, marker: string, timeoutMs = 60_000): Promise<string> {
  return new Promise((resolve, reject) => {
    let output = "";
    const timer = setTimeout(() => {
      reject(new Error(`no "${marker}" within ${timeoutMs} ms:\n${output}`));
    }, timeoutMs);
    const onData = (chunk: Buffer): void => {
      output += chunk.toString();
      if (output.includes(marker)) {
        clearTimeout(timer);
        resolve(output);
      }
    };
    child.stdout?.on("data", onData);
    child.stderr?.on("data", onData);
    child.once("exit", (code) => {
      clearTimeout(timer);
      reject(new Error(`exited with ${code} before "${marker}":\n${output}`));
    });
  });
}

const show = (run: Run): string =>
  `exit ${run.code}\nstdout:\n${run.stdout}\nstderr:\n${run.stderr}`;

describe("agentdock-temporal against a Temporal server and a worker", () => {
  let env: TestEnv;
  let serverEnv: Record<string, string>;
  const sessionId = uniqueId("cli");

  before(async () => {
    env = await createTestEnv();
    await env.startWorker();
    const server = testServer();
    serverEnv = {
      TEMPORAL_ADDRESS: server.address,
      TEMPORAL_NAMESPACE: server.namespace,
      AGENTDOCK_TASK_QUEUE: env.taskQueue,
    };
  });
  after(() => env.close());

  it("send --agent starts the session and prints the TurnResult as JSON, tools critique → debate → reflect", async () => {
    const run = await cli(
      ["send", sessionId, "Please evaluate my plan", "--agent", "cognitive-reasoner", "--json"],
      serverEnv,
    );
    assert.equal(run.code, 0, show(run));
    const result = JSON.parse(run.stdout) as {
      turn: number;
      toolCalls: { toolName: string; status: string }[];
      state: { agentId: string; activeStep: string };
    };
    assert.equal(result.turn, 1);
    assert.deepEqual(
      result.toolCalls.map((call) => [call.toolName, call.status]),
      [
        ["critique", "ok"],
        ["debate", "ok"],
        ["reflect", "ok"],
      ],
    );
    assert.equal(result.state.agentId, "cognitive-reasoner");
  });

  it("send without --agent continues a running session and prints the reply", async () => {
    const run = await cli(["send", sessionId, "now", "compare", "Rust", "versus", "Go"], serverEnv);
    assert.equal(run.code, 0, show(run));
    assert.match(run.stdout, /You asked: "now compare Rust versus Go"/);
    assert.match(run.stderr, /\[turn 2 · step DefaultMode · tools think, compare, reflect/);
  });

  it("send to a session that does not exist exits 1 naming it", async () => {
    const run = await cli(["send", "no-such-session", "hello"], serverEnv);
    assert.equal(run.code, 1, show(run));
    assert.match(run.stderr, /no session "no-such-session"/);
  });

  it("state prints the step and turns, and --json the session's state", async () => {
    const text = await cli(["state", sessionId], serverEnv);
    assert.equal(text.code, 0, show(text));
    assert.match(text.stdout, /step\s+DefaultMode/);
    assert.match(text.stdout, /turns\s+2/);
    const json = await cli(["state", sessionId, "--json"], serverEnv);
    assert.equal(json.code, 0, show(json));
    const view = JSON.parse(json.stdout) as { turn: number; status: string; toolCount: number };
    assert.deepEqual([view.turn, view.status, view.toolCount], [2, "idle", 6]);
  });

  it("history prints the conversation with each tool call and result", async () => {
    const run = await cli(["history", sessionId], serverEnv);
    assert.equal(run.code, 0, show(run));
    for (const marker of [
      "you › Please evaluate my plan",
      "⚙ critique",
      "↳ critique:",
      "agent › ",
    ]) {
      assert.ok(run.stdout.includes(marker), `missing ${marker} in:\n${run.stdout}`);
    }
  });

  it("sessions --json lists the session from visibility with its agent, step, status and turns", async () => {
    let listed: Record<string, unknown> | undefined;
    for (let attempt = 0; attempt < 20 && listed?.["turns"] !== 2; attempt++) {
      if (attempt > 0) await sleep(500);
      const run = await cli(["sessions", "--json", "--agent", "cognitive-reasoner"], serverEnv);
      assert.equal(run.code, 0, show(run));
      const sessions = JSON.parse(run.stdout) as Record<string, unknown>[];
      listed = sessions.find((session) => session["sessionId"] === sessionId);
    }
    assert.ok(listed !== undefined, "the session is listed");
    assert.equal(listed["agentId"], "cognitive-reasoner");
    assert.equal(listed["activeStep"], "DefaultMode");
    assert.equal(listed["status"], "running");
    assert.equal(listed["turns"], 2);
    assert.ok(!Number.isNaN(Date.parse(String(listed["lastActivity"]))));
    const table = await cli(["sessions", "--status", "running"], serverEnv);
    assert.equal(table.code, 0, show(table));
    assert.match(
      table.stdout,
      new RegExp(`${sessionId}\\s+cognitive-reasoner\\s+DefaultMode\\s+running`),
    );
  });

  it("chat shows the step change and tool calls as they happen, then the reply", async () => {
    const chatSession = uniqueId("chat");
    const run = await cli(
      ["chat", "cognitive-reasoner", "--session", chatSession],
      serverEnv,
      "Please evaluate remote work\n",
    );
    assert.equal(run.code, 0, show(run));
    const order = [
      `New session ${chatSession}`,
      "→ step EvaluationMode",
      "⚙ tool critique",
      "⚙ tool debate",
      "⚙ tool reflect",
      "Cognitive Reasoner ›",
      "[turn 1",
      `agentdock-temporal chat cognitive-reasoner --session ${chatSession}`,
    ];
    const positions = order.map((marker) => run.stdout.indexOf(marker));
    assert.ok(
      positions.every((position) => position >= 0),
      `missing a marker in:\n${run.stdout}`,
    );
    assert.deepEqual(
      positions,
      [...positions].sort((a, b) => a - b),
      "printed in order",
    );
  });

  it("chat --session on a running session recaps the last exchange before the prompt", async () => {
    const chatSession = uniqueId("recap");
    const first = await cli(
      ["chat", "cognitive-reasoner", "--session", chatSession],
      serverEnv,
      "Please evaluate remote work\n",
    );
    assert.equal(first.code, 0, show(first));
    const resumed = await cli(
      ["chat", "cognitive-reasoner", "--session", chatSession],
      serverEnv,
      "",
    );
    assert.equal(resumed.code, 0, show(resumed));
    assert.match(resumed.stdout, new RegExp(`Continuing session ${chatSession}`));
    assert.match(
      resumed.stdout,
      /Last exchange:\n {2}you › Please evaluate remote work\n {2}Cognitive Reasoner › You asked/,
    );
  });

  it("replay <session> replays the live session's history without nondeterminism", async () => {
    const run = await cli(["replay", sessionId], serverEnv);
    assert.equal(run.code, 0, show(run));
    assert.match(run.stdout, new RegExp(`✓ session-${sessionId} replays without nondeterminism`));
  });

  it("end ends the session; state then shows it ended, and ending it again exits 1", async () => {
    const end = await cli(["end", sessionId, "--reason", "done here"], serverEnv);
    assert.equal(end.code, 0, show(end));
    assert.match(end.stdout, /ended after 2 turn\(s\): done here/);
    const state = await cli(["state", sessionId, "--json"], serverEnv);
    assert.equal(state.code, 0, show(state));
    const view = JSON.parse(state.stdout) as { status: string; endReason: string };
    assert.deepEqual([view.status, view.endReason], ["ended", "done here"]);
    const again = await cli(["end", sessionId], serverEnv);
    assert.equal(again.code, 1, show(again));
    assert.match(again.stderr, /has already ended/);
  });
});

describe("agentdock-temporal worker and dev", () => {
  const dir = mkdtempSync(join(tmpdir(), "agentdock-cli-"));
  after(() => {
    rmSync(dir, { recursive: true, force: true });
  });

  it("worker serves sessions on its task queue until Ctrl-C, then exits 0", async () => {
    const server = testServer();
    const workerEnv = {
      TEMPORAL_ADDRESS: server.address,
      TEMPORAL_NAMESPACE: server.namespace,
      AGENTDOCK_TASK_QUEUE: uniqueId("cli-worker"),
    };
    const worker = spawnCli(["worker"], workerEnv);
    const done = finish(worker);
    await waitForOutput(worker, "worker: polling task queue");
    const sent = await cli(
      ["send", uniqueId("w"), "Please evaluate it", "--agent", "cognitive-reasoner"],
      workerEnv,
    );
    assert.equal(sent.code, 0, show(sent));
    worker.kill("SIGINT");
    const run = await done;
    assert.equal(run.code, 0, show(run));
    assert.match(run.stderr, /worker: stopped/);
  });

  it("serve runs the HTTP API with bearer auth until Ctrl-C, then exits 0", async () => {
    const server = testServer();
    const serve = spawnCli(["serve", "--port", "0"], {
      TEMPORAL_ADDRESS: server.address,
      TEMPORAL_NAMESPACE: server.namespace,
      AGENTDOCK_API_TOKEN: "e2e-token",
    });
    const done = finish(serve);
    const output = await waitForOutput(serve, "bearer auth)");
    const url = /HTTP API on (http:\/\/127\.0\.0\.1:\d+)/.exec(output)?.[1];
    assert.ok(url !== undefined, output);
    assert.equal((await fetch(`${url}/healthz`)).status, 200);
    assert.equal((await fetch(`${url}/api/agents`)).status, 401);
    const agents = await fetch(`${url}/api/agents`, {
      headers: { authorization: "Bearer e2e-token" },
    });
    assert.equal(agents.status, 200);
    serve.kill("SIGINT");
    const run = await done;
    assert.equal(run.code, 0, show(run));
    assert.match(run.stderr, /GET \/api\/agents 401/);
  });

  it("dev runs a dev server and a worker in the foreground until Ctrl-C", async () => {
    const dev = spawnCli(
      ["dev", "--db", join(dir, "dev.db"), "--port", "0", "--ui-port", "0", "--console-port", "0"],
      { TEMPORAL_CLI: testServer().cliPath, AGENTDOCK_TASK_QUEUE: "agentdock" },
    );
    const done = finish(dev);
    const output = await waitForOutput(dev, "Ctrl-C stops");
    const address = /Temporal dev server: (127\.0\.0\.1:\d+)/.exec(output)?.[1];
    assert.ok(address !== undefined, output);
    assert.match(output, /Web UI: http:\/\/127\.0\.0\.1:\d+/);
    assert.match(output, /Console: http:\/\/127\.0\.0\.1:\d+\//);
    assert.match(output, /Worker: task queue "agentdock"/);
    const sent = await cli(["send", "d1", "hello", "--agent", "general"], {
      TEMPORAL_ADDRESS: address,
      AGENTDOCK_TASK_QUEUE: "agentdock",
    });
    assert.equal(sent.code, 0, show(sent));
    dev.kill("SIGINT");
    const run = await done;
    assert.equal(run.code, 0, show(run));
  });
});

describe("agentdock-temporal without a server", () => {
  const dir = mkdtempSync(join(tmpdir(), "agentdock-cli-"));
  after(() => {
    rmSync(dir, { recursive: true, force: true });
  });

  it("agents lists the shipped templates and exits 0", async () => {
    const run = await cli(["agents"]);
    assert.equal(run.code, 0, show(run));
    assert.match(run.stdout, /cognitive-reasoner\s+Cognitive Reasoner\s+7\s+7/);
    assert.match(run.stdout, /research-planner/);
  });

  it("agents with a broken local template exits 1 printing the template error exactly", async () => {
    const agentsDir = join(dir, "agents");
    const file = join(agentsDir, "broken-agent", "template.json");
    mkdirSync(join(agentsDir, "broken-agent"), { recursive: true });
    writeFileSync(
      file,
      JSON.stringify({
        id: "broken-agent",
        name: "Broken",
        personality: "x",
        tools: ["think"],
        orchestration: { steps: [{ name: "A", sequence: ["critique"] }] },
      }),
    );
    const expected = `${file} is invalid:\n  orchestration.steps[0].sequence[0]: "critique" is not one of this agent's tools; add it to "tools"`;
    for (const [args, env] of [
      [["agents", "--dir", agentsDir], {}],
      [["agents"], { AGENTDOCK_AGENTS_DIR: agentsDir }],
    ] as const) {
      const run = await cli([...args], env);
      assert.equal(run.code, 1, show(run));
      assert.ok(run.stderr.includes(expected), `expected exactly:\n${expected}\n${show(run)}`);
      assert.match(run.stdout, /broken-agent\s+INVALID/);
    }
    const json = await cli(["agents", "--dir", agentsDir, "--json"]);
    assert.equal(json.code, 1, show(json));
    const listed = JSON.parse(json.stdout) as { id: string; valid: boolean; error?: string }[];
    assert.deepEqual(
      listed.find((agent) => agent.id === "broken-agent"),
      { id: "broken-agent", valid: false, file, error: expected },
    );
  });

  it("replay of a committed history file exits 0", async () => {
    const run = await cli(["replay", join(replayHistoriesDir, "evaluation-turn.json")]);
    assert.equal(run.code, 0, show(run));
    assert.match(run.stdout, /replays without nondeterminism/);
  });

  it("replay of a tampered history exits 1 naming the nondeterminism and the diverging event", async () => {
    const recorded = JSON.parse(
      readFileSync(join(replayHistoriesDir, "evaluation-turn.json"), "utf8"),
    ) as {
      history: {
        events: {
          eventId: string;
          activityTaskScheduledEventAttributes?: { activityType: { name: string } };
        }[];
      };
    };
    const scheduled = recorded.history.events.find(
      (event) => event.activityTaskScheduledEventAttributes !== undefined,
    );
    assert.ok(scheduled?.activityTaskScheduledEventAttributes !== undefined);
    const renamed = `${scheduled.activityTaskScheduledEventAttributes.activityType.name}Renamed`;
    scheduled.activityTaskScheduledEventAttributes.activityType.name = renamed;
    const tampered = join(dir, "tampered.json");
    writeFileSync(tampered, JSON.stringify(recorded));

    const run = await cli(["replay", tampered]);
    assert.equal(run.code, 1, show(run));
    assert.match(run.stdout, /nondeterminism: \[TMPRL1100\] Nondeterminism error: /);
    assert.ok(run.stdout.includes(renamed), show(run));
    assert.ok(
      run.stdout.includes(
        `first diverging event: #${scheduled.eventId} ActivityTaskScheduled (activity ${renamed})`,
      ),
      show(run),
    );
  });

  it("an unknown agent exits 1 and lists the available agents, for send and chat", async () => {
    for (const args of [
      ["send", "s1", "hi", "--agent", "nope"],
      ["chat", "nope"],
    ]) {
      const run = await cli(args);
      assert.equal(run.code, 1, `${args.join(" ")}: ${show(run)}`);
      assert.match(run.stderr, /no agent "nope"/, args.join(" "));
      assert.match(run.stderr, /available agents: .*cognitive-reasoner/, args.join(" "));
    }
  });

  it("usage errors exit 2 and say what is wrong", async () => {
    const cases: [string[], RegExp][] = [
      [[], /Usage: agentdock-temporal <command>/],
      [["bogus"], /unknown command "bogus"/],
      [["send", "s1"], /missing <text>/],
      [["send", "s1", "hi", "--bogus"], /Unknown option '--bogus'/],
      [["state", "bad/id"], /<session>: a session id uses/],
      [["sessions", "--status", "weird"], /--status: /],
      [["chat"], /missing <agent>/],
      [["replay", "missing-file.json"], /no such file missing-file\.json/],
      [["agents", "extra"], /unexpected argument "extra"/],
      [["dev", "--port", "70000"], /--port: /],
    ];
    const runs = await Promise.all(cases.map(([args]) => cli(args)));
    cases.forEach(([args, message], index) => {
      const run = runs[index];
      assert.ok(run !== undefined);
      assert.equal(run.code, 2, `${args.join(" ")}: ${show(run)}`);
      assert.match(run.stderr, message, args.join(" "));
    });
  });

  it("an unreachable server exits 3 naming the address and how to configure it", async () => {
    for (const args of [["sessions"], ["send", "s1", "hi"], ["state", "s1"], ["worker"]]) {
      const run = await cli(args, unreachableEnv);
      assert.equal(run.code, 3, `${args.join(" ")}: ${show(run)}`);
      assert.match(run.stderr, /cannot connect to Temporal at 127\.0\.0\.1:1/);
      assert.match(run.stderr, /TEMPORAL_ADDRESS/);
      assert.match(run.stderr, /agentdock-temporal dev/);
    }
  });

  it("--help on every command exits 0 and documents the exit codes", async () => {
    const all = [
      "dev",
      "worker",
      "chat",
      "send",
      "sessions",
      "state",
      "history",
      "end",
      "agents",
      "replay",
    ];
    const runs = await Promise.all(all.map((command) => cli([command, "--help"])));
    for (const [index, command] of all.entries()) {
      const run = runs[index];
      assert.ok(run !== undefined);
      assert.equal(run.code, 0, `${command}: ${show(run)}`);
      assert.match(run.stdout, new RegExp(`Usage: agentdock-temporal ${command}`));
      assert.match(run.stdout, /3 {2}cannot connect to Temporal/);
    }
    const start = await cli(["start", "--help"]);
    assert.equal(start.code, 0, show(start));
    assert.match(start.stdout, /Usage: npm start/);
  });

  it("the bin launcher runs the CLI, re-executing the project's Node when this one cannot run TypeScript", async () => {
    for (const flags of [[], ["--no-experimental-strip-types"]]) {
      const child = spawn(
        process.execPath,
        [...flags, "bin/agentdock-temporal", "agents", "--bogus"],
        {
          env: { ...process.env, ...unreachableEnv },
        },
      );
      const run = await finish(child);
      assert.equal(run.code, 2, `${flags.join(" ")}: ${show(run)}`);
      assert.match(run.stderr, /Unknown option '--bogus'/);
    }
  });
});
