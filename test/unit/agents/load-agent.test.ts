import assert from "node:assert/strict";
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { after, describe, it } from "node:test";
import { listAgents, loadAgent } from "../../../src/agents/index.ts";
import { TemplateError, type TemplateIssue } from "../../../src/agents/index.ts";
import { toolCatalogueEntries } from "../../../src/tools/index.ts";

// Temporary agents folders live outside the project, so the loader shows their absolute paths.
const temporaryDirs: string[] = [];
after(() => {
  for (const dir of temporaryDirs) rmSync(dir, { recursive: true, force: true });
});

function agentsDir(templates: Record<string, string>): string {
  const dir = mkdtempSync(join(tmpdir(), "agents-"));
  temporaryDirs.push(dir);
  for (const [id, text] of Object.entries(templates)) {
    mkdirSync(join(dir, id));
    writeFileSync(join(dir, id, "template.json"), text);
  }
  return dir;
}

const tools = toolCatalogueEntries;

function loadError(id: string, agentsDirs: string[]): TemplateError {
  try {
    loadAgent(id, { agentsDirs, tools });
  } catch (error) {
    assert.ok(error instanceof TemplateError, `expected a TemplateError, got ${String(error)}`);
    return error;
  }
  return assert.fail(`agent "${id}" loaded, but it should have been rejected`);
}

const good = JSON.stringify({ id: "good", name: "Good", tools: ["think"] });

describe("loadAgent", () => {
  it("loads <dir>/<id>/template.json and returns the file and its warnings", () => {
    const dir = agentsDir({
      planner: JSON.stringify({
        id: "planner",
        name: "Planner",
        tools: ["think"],
        orchestration: { steps: [{ name: "Orphan" }] },
      }),
    });
    const loaded = loadAgent("planner", { agentsDirs: [dir], tools });
    assert.equal(loaded.template.name, "Planner");
    assert.equal(loaded.file, join(dir, "planner", "template.json"));
    assert.deepEqual(loaded.warnings, [
      {
        path: "orchestration.steps[0]",
        message:
          'step "Orphan" can never become active: it has no conditions, is not the default and no onComplete names it',
      },
    ] satisfies TemplateIssue[]);
  });

  it("takes an agent from the first folder that has it", () => {
    const shipped = agentsDir({ good: JSON.stringify({ id: "good", name: "Shipped" }) });
    const local = agentsDir({ good: JSON.stringify({ id: "good", name: "Local" }) });
    assert.equal(loadAgent("good", { agentsDirs: [local, shipped], tools }).template.name, "Local");
    assert.equal(
      loadAgent("good", { agentsDirs: [shipped, local], tools }).template.name,
      "Shipped",
    );
  });

  it("names the folders searched and lists the available agents for an unknown agent", () => {
    const first = agentsDir({ good, other: JSON.stringify({ id: "other", name: "Other" }) });
    const second = agentsDir({ extra: JSON.stringify({ id: "extra", name: "Extra" }) });
    assert.throws(() => loadAgent("nope", { agentsDirs: [first, second], tools }), {
      message: `no agent "nope": looked for nope/template.json in ${first}, ${second}; available agents: extra, good, other`,
    });
  });

  it("says only where it looked when no agent exists at all", () => {
    const missing = join(agentsDir({}), "missing");
    assert.throws(() => loadAgent("nope", { agentsDirs: [missing], tools }), {
      message: `no agent "nope": looked for nope/template.json in ${missing}`,
    });
  });

  it("rejects a template whose id does not match its folder", () => {
    const dir = agentsDir({ planner: JSON.stringify({ id: "research", name: "Research" }) });
    const error = loadError("planner", [dir]);
    assert.deepEqual(error.issues, [
      { path: "id", message: 'the template\'s id "research" must match its folder name "planner"' },
    ]);
    assert.equal(
      error.message,
      `${join(dir, "planner", "template.json")} is invalid:\n  id: the template's id "research" must match its folder name "planner"`,
    );
  });

  it("points an AgentDock template's id mismatch at agentId", () => {
    const dir = agentsDir({
      planner: JSON.stringify({ agentId: "research", name: "Research", nodes: ["think"] }),
    });
    assert.deepEqual(loadError("planner", [dir]).issues, [
      {
        path: "agentId",
        message: 'the template\'s id "research" must match its folder name "planner"',
      },
    ]);
  });

  it("reports invalid JSON with its line and column", () => {
    const dir = agentsDir({
      broken: '{\n  "id": "broken",\n  "name": "Broken"\n  "tools": []\n}\n',
    });
    const error = loadError("broken", [dir]);
    assert.deepEqual(error.issues, [
      {
        path: "",
        message:
          "not valid JSON at line 4, column 3: Expected ',' or '}' after property value in JSON at position 41",
      },
    ]);
    assert.equal(
      error.message,
      `${join(dir, "broken", "template.json")} is invalid:\n  (template): ${error.issues[0]?.message ?? ""}`,
    );
  });

  it("reports the line and column of a trailing comma", () => {
    const dir = agentsDir({ broken: '{\n  "id": "broken",\n  "tools": ["think",]\n}\n' });
    const [issue] = loadError("broken", [dir]).issues;
    assert.match(issue?.message ?? "", /^not valid JSON at line 3, column 21: /);
  });

  it("reports template errors with their path in the file", () => {
    const dir = agentsDir({ typo: JSON.stringify({ id: "typo", name: "Typo", tools: ["thnk"] }) });
    assert.deepEqual(loadError("typo", [dir]).issues, [
      {
        path: "tools[0]",
        message:
          'unknown tool "thnk" — did you mean "think"? (known: think, reflect, critique, debate, brainstorm, compare, summarize, search, deep_research)',
      },
    ]);
  });
});

describe("listAgents", () => {
  it("lists every agent, sorted, each loaded or with the error that stops it", () => {
    const dir = agentsDir({
      good,
      mismatch: JSON.stringify({ id: "other", name: "Other" }),
      "bad-json": "{",
      "bad-tool": JSON.stringify({ id: "bad-tool", name: "Bad", tools: ["thnk"] }),
    });
    mkdirSync(join(dir, "no-template"));
    writeFileSync(join(dir, "README.md"), "not an agent");
    const file = (id: string): string => join(dir, id, "template.json");
    const listing = listAgents({ agentsDirs: [dir, join(dir, "missing")], tools }).map((entry) =>
      entry.ok
        ? { id: entry.id, ok: true, name: entry.agent.template.name }
        : { id: entry.id, ok: false, error: entry.error.message },
    );
    assert.deepEqual(listing, [
      {
        id: "bad-json",
        ok: false,
        error: `${file("bad-json")} is invalid:\n  (template): not valid JSON at line 1, column 2: Expected property name or '}' in JSON at position 1`,
      },
      {
        id: "bad-tool",
        ok: false,
        error: `${file("bad-tool")} is invalid:\n  tools[0]: unknown tool "thnk" — did you mean "think"? (known: think, reflect, critique, debate, brainstorm, compare, summarize, search, deep_research)`,
      },
      { id: "good", ok: true, name: "Good" },
      {
        id: "mismatch",
        ok: false,
        error: `${file("mismatch")} is invalid:\n  id: the template's id "other" must match its folder name "mismatch"`,
      },
    ]);
  });
});
