import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { createOrchestrator } from "../../../src/orchestration/index.ts";
import { parseAgentTemplate } from "../../../src/agents/index.ts";
import { toolCatalogueEntries } from "../../../src/tools/index.ts";
import { msg, orchestratorFor, run, tool } from "./build-template.ts";

// Step and tool names are free identifiers, and the state keeps records by name (completion
// marks, unavailable tools, failures): a name that is also a member of every object's prototype
// must be looked up as the record's own key, never found on the prototype.

const inheritedNames = ["constructor", "toString", "valueOf", "__proto__"];

describe("names shared with Object.prototype", () => {
  for (const name of inheritedNames) {
    it(`a step named "${name}" is entered when its conditions hold, and again after it completed`, () => {
      const orchestrator = orchestratorFor({
        steps: [
          { name: "Base", isDefault: true },
          {
            name,
            conditions: [{ type: "message_contains", value: "research" }],
            sequence: ["search"],
            onComplete: "default",
          },
        ],
      });
      const entered = run(orchestrator, [msg("please research this")]);
      assert.equal(entered.activeStep, name);
      const completed = run(orchestrator, [tool("search")], entered);
      assert.equal(completed.activeStep, "Base");
      // Its completion mark is a key of the state, as JSON carries it across continue-as-new.
      assert.deepEqual(JSON.parse(JSON.stringify(completed.pastCompletions)), {
        [name]: { toolCount: 1, turn: 1 },
      });
      const again = run(orchestrator, [msg("research more")], completed);
      assert.equal(again.activeStep, name);
    });
  }

  it('a tool named "constructor" is offered while another tool is unavailable, and is not reported unavailable itself', () => {
    const tools = [...toolCatalogueEntries, { name: "constructor" }, { name: "toString" }];
    const template = parseAgentTemplate(
      { id: "test", name: "Test", tools: ["search", "constructor", "toString"] },
      { tools },
    );
    const orchestrator = createOrchestrator(template, tools);
    const decision = orchestrator.onToolAvailability(orchestrator.initialState(), {
      search: "not configured",
    });
    assert.deepEqual(decision.events, [
      { type: "tool_unavailable", tool: "search", reason: "not configured" },
    ]);
    assert.deepEqual(decision.state.unavailableTools, { search: "not configured" });
    assert.deepEqual(orchestrator.allowedTools(decision.state), ["constructor", "toString"]);
    const failed = orchestrator.onToolFailed(decision.state, "toString", "boom");
    assert.deepEqual(failed.state.toolFailures, {
      toString: { count: 1, error: "boom", turn: 0 },
    });
    assert.equal(orchestrator.checkToolCall(failed.state, "constructor").ok, true);
  });
});
