import assert from "node:assert/strict";
import { readdirSync } from "node:fs";
import { join } from "node:path";
import { describe, it } from "node:test";
import { readHistoryFile } from "../../../src/cli/history-file.ts";
import {
  compareDecisions,
  describeComparison,
  readSessionRecording,
  recomputeDecisions,
  recordingMismatch,
  type SessionRecording,
} from "../../../src/client/index.ts";
import type { AgentTemplate } from "../../../src/orchestration/index.ts";
import { replayHistoriesDir } from "../../support/history.ts";

const files = readdirSync(replayHistoriesDir).filter((file) => file.endsWith(".json"));

function recording(file: string): SessionRecording {
  const { workflowId, history } = readHistoryFile(join(replayHistoriesDir, file));
  return readSessionRecording(workflowId, [history]);
}

/** The template the recorded session started with, changed by `edit` (a deep copy). */
function edited(source: SessionRecording, edit: (template: AgentTemplate) => void): AgentTemplate {
  const template = structuredClone(source.input.template);
  edit(template);
  return template;
}

describe("a session's decisions recomputed from its recorded history", () => {
  for (const file of files) {
    it(`reproduces every turn's recorded state and offered tools in ${file}`, () => {
      const source = recording(file);
      const decisions = recomputeDecisions(source);
      assert.ok(decisions.length > 0, "the history has turns");
      assert.equal(recordingMismatch(decisions), undefined);
      for (const decision of decisions) {
        const recorded = source.entries.find(
          (entry) => entry.type === "turn" && entry.turn === decision.turn,
        );
        if (recorded?.type !== "turn" || recorded.result === undefined) continue;
        const view = recorded.result.state;
        const state = decision.stateAfter;
        assert.deepEqual(
          {
            activeStep: state.activeStep ?? null,
            sequenceIndex: state.sequenceIndex,
            recentlyUsedTools: state.recentlyUsedTools,
            toolCount: state.toolCount,
            turn: state.turn,
            cumulativeTokenUsage: state.cumulativeTokenUsage,
          },
          {
            activeStep: view.activeStep,
            sequenceIndex: view.sequenceIndex,
            recentlyUsedTools: view.recentlyUsedTools,
            toolCount: view.toolCount,
            turn: view.turn,
            cumulativeTokenUsage: view.cumulativeTokenUsage,
          },
          `turn ${decision.turn}`,
        );
      }
    });
  }
});

describe("comparing a session's decisions under a changed template", () => {
  it("finds no difference under the template the session ran", () => {
    const source = recording("evaluation-turn.json");
    const comparison = compareDecisions(source, source.input.template);
    assert.deepEqual(comparison, { outcome: "same", messages: 1, fromMessage: 1 });
    assert.equal(describeComparison(comparison), "same decisions for all 1 message");
  });

  it("names the message and model call where a shorter sequence offers another tool", () => {
    const source = recording("evaluation-turn.json");
    const template = edited(source, (draft) => {
      const step = draft.orchestration.steps.find(({ name }) => name === "EvaluationMode");
      assert.ok(step !== undefined);
      step.sequence = [["critique"], ["reflect"]];
      step.availableTools = { allowed: ["critique", "reflect"] };
    });
    const comparison = compareDecisions(source, template);
    assert.ok(comparison.outcome === "different", comparison.outcome);
    assert.deepEqual(comparison.first.activeStep, {
      before: "EvaluationMode",
      after: "EvaluationMode",
    });
    assert.equal(comparison.first.modelCall, 2);
    assert.deepEqual(comparison.first.offeredTools, { before: ["debate"], after: ["reflect"] });
    assert.match(
      describeComparison(comparison),
      /^first difference at message 1 \("Please evaluate .*"\): active step EvaluationMode → EvaluationMode; offered tools \[debate\] → \[reflect\] \(model call 2\)$/,
    );
  });

  it("reports a step the new template would not enter at the message that selected it", () => {
    const source = recording("visibility-evaluation-turns.json");
    const template = edited(source, (draft) => {
      draft.orchestration.steps = draft.orchestration.steps.filter(
        ({ name }) => name !== "EvaluationMode",
      );
    });
    const comparison = compareDecisions(source, template);
    assert.ok(comparison.outcome === "different");
    assert.equal(comparison.first.turn, 1);
    assert.equal(comparison.first.activeStep.before, "EvaluationMode");
    assert.notEqual(comparison.first.activeStep.after, "EvaluationMode");
  });

  it("says where a fork's history starts: its earlier messages are its parent's", () => {
    const source = recording("forked-session.json");
    const comparison = compareDecisions(source, source.input.template);
    assert.deepEqual(comparison, { outcome: "same", messages: 1, fromMessage: 3 });
    assert.equal(
      describeComparison(comparison),
      "same decisions for all 1 message (messages 3 to 3: the history starts after message 2)",
    );
  });

  it("refuses to compare a history whose recorded offers the recomputation does not reproduce", () => {
    const source = recording("two-messages.json");
    const [first] = source.entries;
    assert.ok(first?.type === "turn");
    const call = first.steps.find((step) => step.type === "model_call");
    assert.ok(call?.type === "model_call");
    call.offeredTools = ["a-tool-the-session-never-offered"];
    const comparison = compareDecisions(source, source.input.template);
    assert.equal(comparison.outcome, "unreadable");
  });
});
