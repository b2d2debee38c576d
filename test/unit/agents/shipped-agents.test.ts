import assert from "node:assert/strict";
import { existsSync, readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { describe, it } from "node:test";
import { listAgentIds, listAgents, loadAgent } from "../../../src/agents/index.ts";
import { toolCatalogueEntries } from "../../../src/tools/index.ts";

const agentsDir = fileURLToPath(new URL("../../../agents/", import.meta.url));
const shippedIds = readdirSync(agentsDir, { withFileTypes: true })
  .filter(
    (entry) => entry.isDirectory() && existsSync(join(agentsDir, entry.name, "template.json")),
  )
  .map((entry) => entry.name)
  .sort();
const options = { agentsDirs: [agentsDir], tools: toolCatalogueEntries };

describe("shipped agents", () => {
  it("include the general, research-planner and cognitive-reasoner agents", () => {
    for (const id of ["cognitive-reasoner", "general", "research-planner"]) {
      assert.ok(shippedIds.includes(id), `agents/${id}/template.json is missing`);
    }
    assert.deepEqual(listAgentIds([agentsDir]), shippedIds);
  });

  for (const id of shippedIds) {
    describe(id, () => {
      it("loads through the real loader with no warnings", () => {
        const loaded = loadAgent(id, options);
        assert.equal(loaded.template.id, id);
        assert.equal(loaded.file, join(agentsDir, id, "template.json"));
        assert.deepEqual(loaded.warnings, []);
      });

      it('points "$schema" at the generated JSON schema', () => {
        const raw = JSON.parse(readFileSync(join(agentsDir, id, "template.json"), "utf8")) as {
          $schema?: unknown;
        };
        assert.equal(raw.$schema, "../template.schema.json");
      });
    });
  }

  it("all load when listed", () => {
    const listing = listAgents(options).map((entry) =>
      entry.ok
        ? { id: entry.id, ok: true }
        : { id: entry.id, ok: false, error: entry.error.message },
    );
    assert.deepEqual(
      listing,
      shippedIds.map((id) => ({ id, ok: true })),
    );
  });
});
