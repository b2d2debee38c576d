import assert from "node:assert/strict";
import { spawn } from "node:child_process";
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { after, before, describe, it } from "node:test";
import { replayHistoriesDir } from "../support/history.ts";
import { createTestEnv, testServer, uniqueId, type TestEnv } from "../support/temporal-env.ts";

interface Run {
  code: number | null;
  stdout: string;
  stderr: string;
}

/** `node src/cli.ts …` as a user runs it, bounded in time. */
async function cli(args: string[], env: Record<string, string> = {}): Promise<Run> {
  const child = spawn(process.execPath, ["src/cli.ts", ...args], {
    env: { ...process.env, TEMPORAL_ADDRESS: "127.0.0.1:1", ...env },
    stdio: ["ignore", "pipe", "pipe"],
  });
  let stdout = "";
  let stderr = "";
  child.stdout.on("data", (chunk: Buffer) => (stdout += chunk.toString()));
  child.stderr.on("data", (chunk: Buffer) => (stderr += chunk.toString()));
  const timer = setTimeout(() => child.kill("SIGKILL"), 120_000);
  const code = await new Promise<number | null>((resolve) => child.once("exit", resolve));
  clearTimeout(timer);
  return { code, stdout, stderr };
}

const show = (run: Run): string =>
  `exit ${run.code}\nstdout:\n${run.stdout}\nstderr:\n${run.stderr}`;

const dir = mkdtempSync(join(tmpdir(), "agentdock-evolution-"));
after(() => {
  rmSync(dir, { recursive: true, force: true });
});

/** The shipped reasoner with evaluation shortened to critique → reflect, as agents/<id>/template.json. */
function shortenedEvaluation(folder: string): string {
  const template = JSON.parse(
    readFileSync("agents/cognitive-reasoner/template.json", "utf8"),
  ) as Record<string, unknown> & {
    orchestration: { steps: { name: string; sequence?: unknown; availableTools?: unknown }[] };
  };
  delete template["$schema"];
  for (const step of template.orchestration.steps) {
    if (step.name !== "EvaluationMode") continue;
    step.sequence = ["critique", "reflect"];
    step.availableTools = { allowed: ["critique", "reflect"] };
  }
  const file = join(folder, "cognitive-reasoner", "template.json");
  mkdirSync(join(folder, "cognitive-reasoner"), { recursive: true });
  writeFileSync(file, JSON.stringify(template, null, 2));
  return file;
}

const changedDir = join(dir, "changed");
const changedFile = shortenedEvaluation(changedDir);
const history = (name: string): string => join(replayHistoriesDir, name);

describe("replay --template without a server", () => {
  it("reports the first message a changed template decides differently, and exits 1", async () => {
    const run = await cli([
      "replay",
      "--template",
      changedDir,
      history("evaluation-turn.json"),
      history("visibility-failed-turn.json"),
    ]);
    assert.equal(run.code, 1, show(run));
    assert.match(
      run.stdout,
      /✗ \S*evaluation-turn\.json \(agent cognitive-reasoner, (?:unversioned|sha256:[0-9a-f]{12}) → sha256:[0-9a-f]{12}\): first difference at message 1 \("Please evaluate the argument that remot…"\): active step EvaluationMode → EvaluationMode; offered tools \[debate\] → \[reflect\] \(model call 2\)/,
    );
    assert.equal(run.stdout.trim().split("\n").length, 2, "one line per target");
  });

  it("says same decisions for every message and exits 0 when nothing changes", async () => {
    const run = await cli([
      "replay",
      "--template",
      "agents",
      history("evaluation-turn.json"),
      history("two-messages.json"),
    ]);
    assert.equal(run.code, 0, show(run));
    assert.match(run.stdout, /✓ \S*evaluation-turn\.json .*: same decisions for all 1 message$/m);
    assert.match(
      run.stdout,
      /✓ \S*two-messages\.json \(agent general.*: same decisions for all 2 messages$/m,
    );
  });

  it("prints one JSON verdict per target with --json", async () => {
    const run = await cli([
      "replay",
      "--template",
      changedFile,
      history("evaluation-turn.json"),
      history("two-messages.json"),
      "--json",
    ]);
    assert.equal(run.code, 1, show(run));
    const verdicts = JSON.parse(run.stdout) as {
      outcome: string;
      first?: { offeredTools: unknown };
      reason?: string;
    }[];
    const [different, skipped] = verdicts;
    assert.equal(verdicts.length, 2);
    assert.equal(different?.outcome, "different");
    assert.deepEqual(different.first?.offeredTools, { before: ["debate"], after: ["reflect"] });
    assert.equal(skipped?.outcome, "skipped");
    assert.match(
      String(skipped.reason),
      /is agent "cognitive-reasoner", but the session runs agent "general"/,
    );
  });

  it("skips another agent's sessions without failing, but fails when it compared nothing", async () => {
    const mixed = await cli([
      "replay",
      "--template",
      "agents/cognitive-reasoner",
      history("evaluation-turn.json"),
      history("two-messages.json"),
    ]);
    assert.equal(mixed.code, 0, show(mixed));
    assert.match(mixed.stdout, /^- \S*two-messages\.json: skipped: .*runs agent "general"$/m);
    assert.match(mixed.stderr, /1 same, 0 different, 0 not checked, 1 skipped/);
    const none = await cli([
      "replay",
      "--template",
      "agents/cognitive-reasoner",
      history("two-messages.json"),
    ]);
    assert.equal(none.code, 1, show(none));
    assert.match(none.stderr, /No session was compared with the template\./);
  });

  it("refuses an invalid template with the loader's message naming the file and the field", async () => {
    const broken = join(dir, "broken.json");
    const template = JSON.parse(readFileSync(changedFile, "utf8")) as Record<string, unknown>;
    writeFileSync(broken, JSON.stringify({ ...template, tools: ["think"] }));
    const run = await cli(["replay", "--template", broken, history("evaluation-turn.json")]);
    assert.equal(run.code, 1, show(run));
    assert.match(
      run.stderr,
      /the --template does not load: \S*broken\.json is invalid:\n {2}orchestration\.steps\[0\]\.availableTools\.allowed\[0\]: "critique" is not one of this agent's tools; add it to "tools"/,
    );
  });
});

describe("fork and upgrade from the command line against a server and a worker", () => {
  let env: TestEnv;
  let serverEnv: Record<string, string>;
  const parent = uniqueId("cli-parent");
  const fork = `${parent}-copy`;

  before(async () => {
    env = await createTestEnv();
    await env.startWorker();
    const server = testServer();
    serverEnv = {
      TEMPORAL_ADDRESS: server.address,
      TEMPORAL_NAMESPACE: server.namespace,
      AGENTDOCK_TASK_QUEUE: env.taskQueue,
    };
    for (const text of ["Please evaluate my plan", "Compare Rust versus Go"]) {
      const run = await cli(["send", parent, text, "--agent", "cognitive-reasoner"], serverEnv);
      assert.equal(run.code, 0, show(run));
    }
  });
  after(() => env.close());

  it("agents lists each template's version", async () => {
    const run = await cli(["agents", "--json"]);
    assert.equal(run.code, 0, show(run));
    const agents = JSON.parse(run.stdout) as { id: string; version: string }[];
    assert.match(
      String(agents.find((agent) => agent.id === "cognitive-reasoner")?.version),
      /^sha256:[0-9a-f]{12}$/,
    );
  });

  it("fork --at 1 --as ID starts the fork at the parent's first turn, and it answers", async () => {
    const run = await cli(["fork", parent, "--at", "1", "--as", fork], serverEnv);
    assert.equal(run.code, 0, show(run));
    assert.match(
      run.stdout,
      new RegExp(
        `^Forked ${parent} at message 1 \\("Please evaluate my plan"\\) into ${fork}: step DefaultMode, 1 turn\\(s\\), template sha256:[0-9a-f]{12}\\.$`,
        "m",
      ),
    );
    const state = await cli(["state", fork], serverEnv);
    assert.match(state.stdout, /turns\s+1\n/);
    assert.match(state.stdout, /template\s+sha256:[0-9a-f]{12}/);
    const send = await cli(["send", fork, "Thanks, carry on"], serverEnv);
    assert.equal(send.code, 0, show(send));
    assert.match(send.stderr, /\[turn 2 · step DefaultMode/);
  });

  it("fork refuses a message out of range and a taken id, exiting 1 with the reason", async () => {
    const late = await cli(["fork", parent, "--at", "9"], serverEnv);
    assert.equal(late.code, 1, show(late));
    assert.match(
      late.stderr,
      /message 9 is out of range: session "\S+" has answered messages 1 to 2/,
    );
    const taken = await cli(["fork", parent, "--at", "1", "--as", fork], serverEnv);
    assert.equal(taken.code, 1, show(taken));
    assert.match(taken.stderr, new RegExp(`session id "${fork}" is taken`));
    const zero = await cli(["fork", parent, "--at", "0"], serverEnv);
    assert.equal(zero.code, 2, show(zero));
    assert.match(zero.stderr, /--at: messages are numbered from 1/);
  });

  it("replay --template names the first difference, then upgrade moves the session to the changed template", async () => {
    const before = await cli(["replay", "--template", changedDir, parent], serverEnv);
    assert.equal(before.code, 1, show(before));
    assert.match(before.stdout, /first difference at message 1 \("Please evaluate my plan"\)/);

    const run = await cli(["upgrade", parent, "--template", changedFile], serverEnv);
    assert.equal(run.code, 0, show(run));
    assert.match(
      run.stdout,
      new RegExp(
        `^Session ${parent} upgraded: template sha256:[0-9a-f]{12} → sha256:[0-9a-f]{12}; step DefaultMode\\.$`,
        "m",
      ),
    );
    const again = await cli(["upgrade", parent, "--template", changedFile], serverEnv);
    assert.equal(again.code, 0, show(again));
    assert.match(again.stdout, /already runs template sha256:/);

    const send = await cli(["send", parent, "Please evaluate the plan again", "--json"], serverEnv);
    assert.equal(send.code, 0, show(send));
    const result = JSON.parse(send.stdout) as { toolCalls: { toolName: string }[] };
    assert.deepEqual(
      result.toolCalls.map((call) => call.toolName),
      ["critique", "reflect"],
    );
  });

  it("upgrade refuses another agent's template without --force and an invalid one, leaving the session as it was", async () => {
    const other = await cli(
      ["upgrade", fork, "--template", "agents/general/template.json"],
      serverEnv,
    );
    assert.equal(other.code, 2, show(other));
    assert.match(
      other.stderr,
      /is agent "general", but session "\S+" runs agent "cognitive-reasoner"; pass --force/,
    );
    const broken = join(dir, "broken-upgrade.json");
    writeFileSync(broken, "{ not json");
    const invalid = await cli(["upgrade", fork, "--template", broken], serverEnv);
    assert.equal(invalid.code, 1, show(invalid));
    assert.match(
      invalid.stderr,
      /broken-upgrade\.json is invalid:\n {2}\(template\): not valid JSON at line 1, column 3/,
    );
    const state = await cli(["state", fork, "--json"], serverEnv);
    const view = JSON.parse(state.stdout) as { agentId: string; turn: number };
    assert.equal(view.agentId, "cognitive-reasoner");
    assert.equal(view.turn, 2);
  });
});
