import assert from "node:assert/strict";
import { mkdirSync, mkdtempSync, readFileSync, rmSync, symlinkSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { after, describe, it } from "node:test";
import { workerModelSetup } from "../../../src/cli/worker-model-setup.ts";

describe("a worker's model setup from its agents folders", () => {
  const dir = mkdtempSync(join(tmpdir(), "worker-model-setup-"));
  after(() => {
    rmSync(dir, { recursive: true, force: true });
  });
  const general = JSON.parse(readFileSync("agents/general/template.json", "utf8")) as Record<
    string,
    unknown
  >;
  function agent(id: string, fields: Record<string, unknown>): void {
    mkdirSync(join(dir, id), { recursive: true });
    writeFileSync(join(dir, id, "template.json"), JSON.stringify({ ...general, id, ...fields }));
  }

  it("allows its templates' base URLs, and skips a dangling symlink and a bad template with warnings", () => {
    agent("local-llm", {
      llm: { provider: "openai-compatible", model: "llama", baseURL: "http://10.1.2.3:8000/v1" },
    });
    agent("broken", { llm: { provider: "scripted", model: "gpt-4o" } });
    symlinkSync(join(dir, "nowhere"), join(dir, "dangling"));
    writeFileSync(join(dir, "notes.txt"), "not an agent");
    const warnings: string[] = [];

    const setup = workerModelSetup(
      { AGENTDOCK_SCRIPT_DIRS: "/srv/scripts" },
      [dir, join(dir, "missing")],
      (line) => warnings.push(line),
    );

    assert.deepEqual(setup.access.baseURLs, ["http://10.1.2.3:8000/v1"]);
    assert.deepEqual(setup.access.scriptDirs, ["/srv/scripts", dir, join(dir, "missing")]);
    assert.equal(warnings.length, 2, warnings.join("\n"));
    assert.match(warnings[0] ?? "", /dangling.*does not exist/);
    assert.match(warnings[1] ?? "", /broken.*llm\.model/s);
  });
});
