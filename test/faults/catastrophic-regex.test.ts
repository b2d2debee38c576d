import assert from "node:assert/strict";
import { spawn } from "node:child_process";
import { mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { after, describe, it } from "node:test";
import { loadAgent, loadTemplateFile } from "../../src/agents/index.ts";
import { TemplateError } from "../../src/orchestration/index.ts";
import { toolCatalogueEntries } from "../../src/tools/index.ts";
import { scratchDir } from "./fault-support.ts";

// test/unit/orchestration/regex-safety-rules.test.ts and bad-templates.test.ts cover the checker
// and the parser on literal templates. Here the same template comes from a file on disk, through
// the loader the worker, the CLI and the server use, and through the CLI's `agents` command.
// A pattern the checker lets through (polynomial backtracking) meeting a long message is in
// hostile-messages.test.ts.

const id = "regex-agent";
const unsafePath = "orchestration.steps[1].conditions[1].value";

const template = {
  id,
  name: "Regex Agent",
  tools: ["think", "critique"],
  orchestration: {
    defaultStep: "Chat",
    steps: [
      { name: "Chat", availableTools: { allowed: ["think"] } },
      {
        name: "Review",
        conditions: [
          { type: "message_contains", value: "review" },
          { type: "message_regex", value: "(a+)+$" },
        ],
        availableTools: { allowed: ["critique"] },
      },
    ],
  },
};

describe("a template with a catastrophic regular expression", () => {
  const scratch = scratchDir("regex-agents");
  const file = join(scratch.dir, id, "template.json");
  mkdirSync(join(scratch.dir, id));
  writeFileSync(file, JSON.stringify(template, null, 2));
  after(() => {
    scratch.remove();
  });

  function assertNamesTheProblem(error: unknown): true {
    assert.ok(error instanceof TemplateError, `expected a TemplateError, got ${String(error)}`);
    assert.match(error.message, new RegExp(file.replace(/[.*+?^${}()|[\]\\]/g, "\\$&")));
    assert.deepEqual(
      error.issues.map((issue) => issue.path),
      [unsafePath],
    );
    assert.match(error.message, /unsafe regular expression: "\(a\+\)\+"/);
    assert.match(error.message, /exponential time/);
    return true;
  }

  it("is rejected by loadTemplateFile, naming the file and the field path, without running it", () => {
    const started = performance.now();
    assert.throws(() => loadTemplateFile(file, toolCatalogueEntries), assertNamesTheProblem);
    assert.ok(performance.now() - started < 1_000, "the check is static, not a timed match");
  });

  it("is rejected by loadAgent, as every entry point loads agents", () => {
    assert.throws(
      () => loadAgent(id, { agentsDirs: [scratch.dir], tools: toolCatalogueEntries }),
      assertNamesTheProblem,
    );
  });

  it("makes `agentdock-temporal agents --dir` exit 1, listing it INVALID with the field path", async () => {
    const child = spawn(process.execPath, ["src/cli.ts", "agents", "--dir", scratch.dir], {
      env: { ...process.env, TEMPORAL_ADDRESS: "127.0.0.1:1" },
      stdio: ["ignore", "pipe", "pipe"],
    });
    let stdout = "";
    let stderr = "";
    child.stdout.on("data", (chunk: Buffer) => (stdout += chunk.toString()));
    child.stderr.on("data", (chunk: Buffer) => (stderr += chunk.toString()));
    const code = await new Promise<number | null>((resolve) => child.once("exit", resolve));

    assert.equal(code, 1, `stdout:\n${stdout}\nstderr:\n${stderr}`);
    assert.match(stdout, new RegExp(`${id}\\s+INVALID`));
    assert.match(stderr, new RegExp(`${unsafePath.replace(/[.[\]]/g, "\\$&")}: unsafe regular`));
    assert.match(stderr, /1 of \d+ templates are invalid: regex-agent/);
  });
});
