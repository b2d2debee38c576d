import assert from "node:assert/strict";
import { spawn } from "node:child_process";
import { mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { after, describe, it } from "node:test";
import { loadAgent, loadTemplateFile } from "../../src/agents/index.ts";
import { TemplateError } from "../../src/agents/index.ts";
import { toolCatalogueEntries } from "../../src/tools/index.ts";
import { scratchDir } from "./fault-support.ts";

// test/unit/orchestration/regex-engine.test.ts and bad-templates.test.ts cover RE2 and the checks
// on literal templates. Here a template using a feature RE2 lacks comes from a file on disk,
// through the loader the worker, the CLI and the server use, and through the CLI's `agents`
// command. Formerly catastrophic patterns meeting the longest message are in
// test/adversarial/regex-stall.test.ts.

const id = "regex-agent";
const unsupportedPath = "orchestration.steps[1].conditions[1].value";

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
          { type: "message_regex", value: "(?<!pre)view" },
        ],
        availableTools: { allowed: ["critique"] },
      },
    ],
  },
};

describe("a template whose regular expression uses a feature RE2 lacks", () => {
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
      [unsupportedPath],
    );
    assert.match(error.message, /uses a negative lookbehind \("\(\?<!"\)/);
    assert.match(error.message, /does not support; use a negated class/);
    return true;
  }

  it("is rejected by loadTemplateFile, naming the file and the field path, without running it", () => {
    assert.throws(() => loadTemplateFile(file, toolCatalogueEntries), assertNamesTheProblem);
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
    assert.match(
      stderr,
      new RegExp(`${unsupportedPath.replace(/[.[\]]/g, "\\$&")}: uses a negative lookbehind`),
    );
    assert.match(stderr, /1 of \d+ templates are invalid: regex-agent/);
  });
});
