import assert from "node:assert/strict";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { after, describe, it } from "node:test";
import { loadTemplateFile, templateVersion } from "../../../src/agents/index.ts";
import { toolCatalogueEntries } from "../../../src/tools/index.ts";
import { shippedAgent } from "../../support/shipped-agents.ts";

const dir = mkdtempSync(join(tmpdir(), "template-version-"));
after(() => {
  rmSync(dir, { recursive: true, force: true });
});

function write(name: string, json: unknown, indent = 2): string {
  const file = join(dir, name);
  writeFileSync(file, JSON.stringify(json, null, indent));
  return file;
}

const base = {
  id: "versioned",
  name: "Versioned",
  tools: ["think", "reflect"],
  orchestration: { defaultStep: "Chat", steps: [{ name: "Chat" }] },
};

describe("a template's version", () => {
  it("is sha256: and 12 hex digits, the same on every load", () => {
    const version = templateVersion(shippedAgent("cognitive-reasoner"));
    assert.match(version, /^sha256:[0-9a-f]{12}$/);
    assert.equal(templateVersion(shippedAgent("cognitive-reasoner")), version);
  });

  it("ignores key order and formatting, and sees every change a session could notice", () => {
    const load = (file: string) => loadTemplateFile(file, toolCatalogueEntries).version;
    const original = load(write("a.json", base));
    const reordered = {
      orchestration: base.orchestration,
      tools: base.tools,
      name: base.name,
      id: base.id,
    };
    assert.equal(load(write("b.json", reordered, 0)), original);
    assert.notEqual(load(write("c.json", { ...base, tools: ["think"] })), original);
    assert.notEqual(load(write("d.json", { ...base, name: "Renamed" })), original);
  });

  it("counts defaults the loader fills in, so writing a default out keeps the version", () => {
    const load = (file: string) => loadTemplateFile(file, toolCatalogueEntries).version;
    const implicit = load(write("e.json", base));
    const explicit = load(write("f.json", { ...base, options: { maxSteps: 10 } }));
    assert.equal(explicit, implicit);
  });
});
