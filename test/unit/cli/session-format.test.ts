import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { formatState } from "../../../src/cli/session-format.ts";
import type { SessionView } from "../../../src/session/index.ts";

const view: SessionView = {
  sessionId: "s1",
  agentId: "cognitive-reasoner",
  status: "failed",
  activeStep: "EvaluationMode",
  sequenceIndex: 1,
  sequenceLength: 3,
  allowedTools: ["debate"],
  recentlyUsedTools: ["critique"],
  toolCount: 1,
  turn: 1,
  cumulativeTokenUsage: { inputTokens: 10, outputTokens: 2, totalTokens: 12 },
  pendingMessages: 0,
  run: 1,
  summarizedTurns: 0,
};

describe("agentdock-temporal state", () => {
  it("shows the failed status, the last step and the last failed turn with its error", () => {
    const text = formatState({
      ...view,
      lastStep: "EvaluationMode",
      lastFailure: {
        turn: 1,
        at: "2026-11-23T12:52:19.000Z",
        error: "script exhausted\nat call 2",
      },
    });
    assert.match(text, /^status +failed$/m);
    assert.match(text, /^last step +EvaluationMode$/m);
    assert.match(
      text,
      /^last failed +turn 1 at 2026-11-23T12:52:19\.000Z: script exhausted at call 2$/m,
    );
  });

  it("leaves both out for a session that never entered a step or failed", () => {
    const text = formatState({ ...view, status: "idle" });
    assert.doesNotMatch(text, /last step|last failed/);
  });
});

describe("agentdock-temporal state's pending line", () => {
  it("does not count the message the running turn answers as pending", () => {
    const text = formatState({ ...view, status: "running", turn: 2, pendingMessages: 1 });
    assert.match(text, /^pending +0 message\(s\) after the running turn$/m);
  });

  it("counts only the messages behind a turn waiting for an approval", () => {
    const text = formatState({ ...view, status: "awaiting_approval", pendingMessages: 3 });
    assert.match(text, /^pending +2 message\(s\) after the running turn$/m);
  });

  it("counts every pending message of an idle session", () => {
    const text = formatState({ ...view, status: "idle", pendingMessages: 2 });
    assert.match(text, /^pending +2 message\(s\)$/m);
  });
});
