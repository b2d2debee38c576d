import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { matchesPattern } from "../../../src/orchestration/index.ts";
import { allTools, msg, orchestratorFor, run, tool, type Step } from "./build-template.ts";

type Orchestration = Parameters<typeof orchestratorFor>[0];
const go = { type: "message_contains", value: "go" } as const;
const stepWith = (availableTools: object, extra: object = {}): Orchestration => ({
  steps: [{ name: "S", conditions: [go], availableTools, ...extra }],
});

interface Row {
  title: string;
  orchestration: Orchestration;
  tools?: string[];
  events: Step[];
  allowed: string[];
}

const rows: Row[] = [
  {
    title: "no active step: every agent tool, in template order",
    orchestration: { steps: [] },
    tools: ["search", "think", "reflect"],
    events: [],
    allowed: ["search", "think", "reflect"],
  },
  {
    title: "allowed absent: every agent tool",
    orchestration: stepWith({}),
    events: [msg("go")],
    allowed: allTools,
  },
  {
    title: "allowed empty: no tool",
    orchestration: stepWith({ allowed: [] }),
    events: [msg("go")],
    allowed: [],
  },
  {
    title: "allowed names keep template order, not list order",
    orchestration: stepWith({ allowed: ["reflect", "think"] }),
    events: [msg("go")],
    allowed: ["think", "reflect"],
  },
  {
    title: "denied drops tools",
    orchestration: stepWith({ denied: ["search", "summarize"] }),
    events: [msg("go")],
    allowed: ["think", "reflect", "critique", "debate", "brainstorm", "compare"],
  },
  {
    title: "denied wins over allowed",
    orchestration: stepWith({ allowed: ["think", "reflect"], denied: ["reflect"] }),
    events: [msg("go")],
    allowed: ["think"],
  },
  {
    title: "a glob matches tool names",
    orchestration: stepWith({ allowed: ["s*"] }),
    events: [msg("go")],
    allowed: ["summarize", "search"],
  },
  {
    title: "a glob matches categories",
    orchestration: stepWith({ allowed: ["*cognitive*"] }),
    events: [msg("go")],
    allowed: ["think", "reflect", "critique", "debate", "brainstorm", "compare"],
  },
  {
    title: "a category glob in denied removes the category",
    orchestration: stepWith({ denied: ["*cognitive*"] }),
    events: [msg("go")],
    allowed: ["summarize", "search"],
  },
  {
    title: "a sequence in progress narrows to the expected position",
    orchestration: stepWith(
      { allowed: ["think", "reflect", "search"] },
      { sequence: ["search", "think"] },
    ),
    events: [msg("go")],
    allowed: ["search"],
  },
  {
    title: "an alternatives position offers each alternative",
    orchestration: stepWith(
      { allowed: ["think", "reflect", "search"] },
      { sequence: [["search", "think"], "reflect"] },
    ),
    events: [msg("go")],
    allowed: ["think", "search"],
  },
  {
    title: "a completed sequence no longer narrows",
    orchestration: stepWith({ allowed: ["think", "reflect", "search"] }, { sequence: ["search"] }),
    events: [msg("go"), tool("search")],
    allowed: ["think", "reflect", "search"],
  },
];

describe("tool policy (spec §5)", () => {
  for (const row of rows) {
    it(row.title, () => {
      const orchestrator = orchestratorFor(row.orchestration, row.tools ?? allTools);
      assert.deepEqual(orchestrator.allowedTools(run(orchestrator, row.events)), row.allowed);
    });
  }

  it("matchesPattern matches names and categories with * globs", () => {
    assert.equal(matchesPattern("*cognitive*", { name: "think", category: "cognitive" }), true);
    assert.equal(matchesPattern("th*", { name: "think" }), true);
    assert.equal(matchesPattern("*k", { name: "think" }), true);
    assert.equal(matchesPattern("t*k", { name: "talk.more" }), false);
    assert.equal(matchesPattern("a.b", { name: "axb" }), false);
  });

  it("checkToolCall accepts an allowed tool", () => {
    const orchestrator = orchestratorFor(stepWith({ allowed: ["think"] }));
    assert.deepEqual(orchestrator.checkToolCall(run(orchestrator, [msg("go")]), "think"), {
      ok: true,
    });
  });

  it("checkToolCall refuses a tool the step does not allow, naming the rule and the allowed tools", () => {
    const orchestrator = orchestratorFor(stepWith({ allowed: ["think", "reflect"] }));
    assert.deepEqual(orchestrator.checkToolCall(run(orchestrator, [msg("go")]), "search"), {
      ok: false,
      reason: '"search" is not allowed now: step "S" does not list it in availableTools.allowed',
      expected: ["think", "reflect"],
    });
  });

  it("checkToolCall refuses a denied tool", () => {
    const orchestrator = orchestratorFor(stepWith({ denied: ["search"] }));
    assert.deepEqual(orchestrator.checkToolCall(run(orchestrator, [msg("go")]), "search"), {
      ok: false,
      reason: '"search" is not allowed now: step "S" denies it in availableTools.denied',
      expected: ["think", "reflect", "critique", "debate", "brainstorm", "compare", "summarize"],
    });
  });

  it("checkToolCall refuses an out-of-order call, naming the expected tool", () => {
    const orchestrator = orchestratorFor(
      stepWith({ allowed: ["think", "search"] }, { sequence: ["search", "think"] }),
    );
    assert.deepEqual(orchestrator.checkToolCall(run(orchestrator, [msg("go")]), "think"), {
      ok: false,
      reason: '"think" is not allowed now: sequence of "S" expects search at position 1/2',
      expected: ["search"],
    });
  });

  it("checkToolCall refuses a tool that is not the agent's, in guide mode too", () => {
    const orchestrator = orchestratorFor({ enforcement: "guide", steps: [] }, ["think"]);
    assert.deepEqual(orchestrator.checkToolCall(orchestrator.initialState(), "search"), {
      ok: false,
      reason: '"search" is not one of this agent\'s tools',
      expected: ["think"],
    });
  });

  it("checkToolCall lets an out-of-policy call run in guide mode and says why it is outside", () => {
    const orchestrator = orchestratorFor({
      ...stepWith({ allowed: ["think", "search"] }, { sequence: ["search", "think"] }),
      enforcement: "guide",
    });
    assert.deepEqual(orchestrator.checkToolCall(run(orchestrator, [msg("go")]), "think"), {
      ok: true,
      outsidePolicy: {
        reason: '"think" is not allowed now: sequence of "S" expects search at position 1/2',
        expected: ["search"],
      },
    });
  });

  it("toolDecisions explains for every agent tool which rule allows or withholds it", () => {
    const orchestrator = orchestratorFor(
      stepWith({ allowed: ["think", "search"], denied: ["think"] }),
      ["think", "search", "reflect"],
    );
    assert.deepEqual(orchestrator.toolDecisions(run(orchestrator, [msg("go")])), [
      { tool: "think", allowed: false, reason: 'step "S" denies it in availableTools.denied' },
      { tool: "search", allowed: true, reason: 'allowed by step "S"' },
      {
        tool: "reflect",
        allowed: false,
        reason: 'step "S" does not list it in availableTools.allowed',
      },
    ]);
  });

  it("forceSequence requires the single expected tool", () => {
    const orchestrator = orchestratorFor(
      stepWith(
        { allowed: ["think", "search"] },
        { sequence: ["search", "think"], forceSequence: true },
      ),
    );
    assert.deepEqual(orchestrator.toolChoice(run(orchestrator, [msg("go")])), {
      type: "tool",
      toolName: "search",
    });
  });

  it("forceSequence requires some tool when a position has alternatives", () => {
    const orchestrator = orchestratorFor(
      stepWith(
        { allowed: ["think", "search"] },
        { sequence: [["search", "think"]], forceSequence: true },
      ),
    );
    assert.deepEqual(orchestrator.toolChoice(run(orchestrator, [msg("go")])), { type: "required" });
  });

  it("without forceSequence, or once the sequence completes, the model chooses freely", () => {
    const forced = orchestratorFor(
      stepWith({ allowed: ["search"] }, { sequence: ["search"], forceSequence: true }),
    );
    assert.deepEqual(forced.toolChoice(run(forced, [msg("go"), tool("search")])), { type: "auto" });
    const free = orchestratorFor(stepWith({ allowed: ["search"] }, { sequence: ["search"] }));
    assert.deepEqual(free.toolChoice(run(free, [msg("go")])), { type: "auto" });
  });
});
