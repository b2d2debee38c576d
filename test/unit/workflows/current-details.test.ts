import assert from "node:assert/strict";
import { describe, it } from "node:test";
import type { SessionView } from "../../../src/session/index.ts";
import { renderCurrentDetails } from "../../../workflows/current-details.ts";
import { markdownLine, markdownQuote, markdownText } from "../../../workflows/markdown-text.ts";

const midTurn: SessionView = {
  sessionId: "s1",
  agentId: "cognitive-reasoner",
  status: "running",
  activeStep: "EvaluationMode",
  sequenceIndex: 2,
  sequenceLength: 3,
  allowedTools: ["reflect"],
  recentlyUsedTools: ["critique", "debate"],
  toolCount: 2,
  turn: 1,
  cumulativeTokenUsage: { inputTokens: 1062, outputTokens: 34, totalTokens: 1096 },
  pendingMessages: 1,
  run: 1,
  summarizedTurns: 0,
  lastStep: "EvaluationMode",
};

const sequence = [["critique"], ["debate"], ["reflect"]];
const decisions = [
  { tool: "reflect", allowed: true, reason: 'next in the sequence of step "EvaluationMode"' },
  { tool: "think", allowed: false, reason: "step “EvaluationMode” does not list it" },
];

const render = (view: SessionView, now?: string): string =>
  renderCurrentDetails({ view, sequence, decisions, now });

describe("current details for the Web UI", () => {
  it("states the running turn, what it does now, the step and the sequence position in words", () => {
    const details = render(midTurn, "model call 3 in EvaluationMode");
    assert.match(details, /^- \*\*Status:\*\* \*\*running\*\* .* turn 1 · run 1$/m);
    assert.match(details, /^- \*\*Now:\*\* model call 3 in EvaluationMode$/m);
    assert.match(details, /^- \*\*Active step:\*\* EvaluationMode$/m);
    assert.match(details, /^- \*\*Sequence:\*\* step 3 of 3$/m);
    assert.deepEqual(
      details.split("\n").filter((line) => /^ {4}\d\. /.test(line)),
      ["    1. ~~critique~~ (done)", "    2. ~~debate~~ (done)", "    3. **reflect** (next)"],
    );
  });

  it("never writes a bare number/number, which the UI's renderer turns into a fraction", () => {
    const hostile: SessionView = {
      ...midTurn,
      activeStep: "Mode 1/2",
      lastStep: "Step 3/4",
      lastFailure: { turn: 2, at: "2026-11-23T12:52:19.000Z", error: "HTTP 429 on attempt 2/5" },
    };
    const details = renderCurrentDetails({
      view: hostile,
      sequence: [["a1/2"], ["b"]],
      decisions: [{ tool: "t", allowed: false, reason: "retry 1/3 failed" }],
      now: "tool x 1/2 running",
    });
    assert.doesNotMatch(details, /\d\/\d/);
    assert.match(details, /Mode 1&#47;2/);
  });

  it("puts every fact on a line of its own: list items, never lines the renderer would join", () => {
    const details = render(midTurn, "tool reflect running");
    for (const line of details.split("\n")) {
      if (line === "" || line === "&#160;") continue;
      assert.match(
        line,
        /^(- | {4}\d\. |\*\*|> )/,
        `a line that would run into the one above: ${line}`,
      );
    }
  });

  it("lists the tools instead of a table, which is wider than the UI's panel", () => {
    const details = render(midTurn);
    assert.doesNotMatch(details, /^\|/m);
    assert.match(details, /^\*\*Offered now \(1\):\*\*$/m);
    assert.match(details, /^- \*\*reflect\*\*: next in the sequence of step "EvaluationMode"$/m);
    assert.match(details, /^\*\*Not offered \(1\):\*\*$/m);
  });

  it("shows the last failed turn with its number, time and error, and the status until it clears", () => {
    const failed: SessionView = {
      ...midTurn,
      status: "failed",
      pendingMessages: 0,
      lastFailure: {
        turn: 2,
        at: "2026-11-23T12:52:19.123Z",
        error: "the model provider refused the request\n<html>quota</html>",
      },
    };
    const details = render(failed, "model call 1");
    assert.match(
      details,
      /^- \*\*Status:\*\* \*\*failed\*\* \(the last turn ended with an error; the next message clears it\)/m,
    );
    assert.doesNotMatch(details, /\*\*Now:\*\*/, "nothing runs between turns");
    assert.match(details, /^\*\*Last failed turn:\*\* turn 2, 2026\\-11\\-23 12:52:19 UTC$/m);
    assert.match(details, /^> the model provider refused the request {2}$/m);
    assert.match(details, /^> \\<html\\>quota\\<&#47;html\\>$/m);
  });

  it("shows a queued message and a completed sequence", () => {
    const idle: SessionView = { ...midTurn, status: "idle", sequenceIndex: 3, pendingMessages: 2 };
    const details = render(idle);
    assert.match(details, /^- \*\*Queued:\*\* 2 more messages$/m);
    assert.match(details, /^- \*\*Sequence:\*\* complete \(all 3 done\)$/m);
  });

  it("ends with an empty paragraph, the part the UI's panel cuts off", () => {
    assert.match(render(midTurn), /\n\n&#160;$/);
  });
});

describe("markdown text for the Web UI", () => {
  it("escapes what markdown, typography, HTML and the UI's placeholders would change", () => {
    assert.equal(
      markdownText(
        `a *b* _c_ \`d\` [e](f) <g> & h -- i (c) 1/3 {workflowId} #j | k ~l~ m. "n" o's`,
      ),
      `a \\*b\\* \\_c\\_ \\\`d\\\` \\[e\\]\\(f\\) \\<g\\> \\& h \\-\\- i \\(c\\) 1&#47;3 \\{workflowId\\} \\#j \\| k \\~l\\~ m\\. "n" o's`,
    );
  });

  it("keeps a one-line value on one line and cuts a long one", () => {
    assert.equal(markdownLine("a\nb\tc"), "a b c");
    assert.equal(markdownLine("x".repeat(10), 5), "xxxx…");
  });

  it("quotes several lines apart and says how much of a long text was left out", () => {
    assert.equal(markdownQuote("one\ntwo"), "> one  \n> two");
    assert.equal(markdownQuote("abcdef", 3), "> abc… \\(3 more characters\\)");
  });
});
