import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { carryStateToTemplate } from "../../../src/orchestration/index.ts";
import { orchestratorFor, msg, run, tool } from "./build-template.ts";

const evaluation = {
  name: "Evaluate",
  conditions: [{ type: "message_contains" as const, value: "evaluate" }],
  sequence: ["critique", "debate", "reflect"],
};
const old = orchestratorFor({
  defaultStep: "Chat",
  steps: [evaluation, { name: "Chat" }],
});

describe("carrying a session's state into a new template", () => {
  it("keeps the active step and its sequence position when the step still exists", () => {
    const state = run(old, [msg("please evaluate this"), tool("critique")]);
    const next = orchestratorFor({ defaultStep: "Chat", steps: [evaluation, { name: "Chat" }] });
    const carried = carryStateToTemplate(state, next.template);
    assert.deepEqual(carried, { state, notes: [] });
  });

  it("moves a session whose step vanished to the new default step, and says so", () => {
    const state = run(old, [msg("please evaluate this"), tool("critique")]);
    const next = orchestratorFor({ defaultStep: "Plain", steps: [{ name: "Plain" }] });
    const carried = carryStateToTemplate(state, next.template);
    assert.equal(carried.state.activeStep, "Plain");
    assert.equal(carried.state.sequenceIndex, 0);
    assert.equal(carried.state.toolCount, state.toolCount);
    assert.deepEqual(carried.state.recentlyUsedTools, ["critique"]);
    assert.deepEqual(carried.notes, [
      'step "Evaluate" is not in the new template: the session is now in its default step "Plain"',
    ]);
    assert.deepEqual(next.allowedTools(carried.state), next.allowedTools(next.initialState()));
  });

  it("leaves no step active when the new template has no default, and says so", () => {
    const state = run(old, [msg("hello")]);
    const next = orchestratorFor({ steps: [evaluation] });
    const carried = carryStateToTemplate(state, next.template);
    assert.equal(carried.state.activeStep, undefined);
    assert.match(carried.notes[0] ?? "", /"Chat" is not in the new template.*no step is active/);
  });

  it("restarts a sequence whose position is past the step's shorter new sequence", () => {
    const state = run(old, [msg("please evaluate this"), tool("critique"), tool("debate")]);
    assert.equal(state.sequenceIndex, 2);
    const next = orchestratorFor({
      defaultStep: "Chat",
      steps: [{ ...evaluation, sequence: ["critique", "debate"] }, { name: "Chat" }],
    });
    const carried = carryStateToTemplate(state, next.template);
    assert.equal(carried.state.activeStep, "Evaluate");
    assert.equal(carried.state.sequenceIndex, 0);
    assert.match(carried.notes[0] ?? "", /shorter sequence/);
  });

  it("drops completion marks of steps the new template lacks", () => {
    const leaving = orchestratorFor({
      defaultStep: "Chat",
      steps: [{ ...evaluation, onComplete: "default" }, { name: "Chat" }],
    });
    const state = run(leaving, [
      msg("please evaluate this"),
      tool("critique"),
      tool("debate"),
      tool("reflect"),
      msg("thanks"),
    ]);
    assert.deepEqual(Object.keys(state.pastCompletions), ["Evaluate"]);
    const next = orchestratorFor({ defaultStep: "Chat", steps: [{ name: "Chat" }] });
    const carried = carryStateToTemplate(state, next.template);
    assert.deepEqual(Object.keys(carried.state.pastCompletions), []);
  });
});
