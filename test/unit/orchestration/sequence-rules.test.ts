import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { msg, orchestratorFor, run, tool, type Step } from "./build-template.ts";

type Orchestration = Parameters<typeof orchestratorFor>[0];

const evaluate = { type: "message_contains", value: "evaluate" } as const;
const evalStep = (extra: object = {}): Orchestration => ({
  defaultStep: "Base",
  steps: [
    { name: "Base" },
    {
      name: "Eval",
      conditions: [evaluate],
      availableTools: { allowed: ["critique", "debate", "reflect", "think", "search"] },
      sequence: ["critique", ["debate", "think"], "reflect"],
      ...extra,
    },
  ],
});

interface Row {
  title: string;
  orchestration: Orchestration;
  events: Step[];
  sequenceIndex: number;
  activeStep?: string;
}

const rows: Row[] = [
  {
    title: "each accepted tool advances the sequence by one",
    orchestration: evalStep(),
    events: [msg("evaluate"), tool("critique")],
    sequenceIndex: 1,
  },
  {
    title: "any alternative of a position is accepted",
    orchestration: evalStep(),
    events: [msg("evaluate"), tool("critique"), tool("think")],
    sequenceIndex: 2,
  },
  {
    title: "a refused call does not advance the sequence (strict)",
    orchestration: evalStep(),
    events: [msg("evaluate"), tool("reflect")],
    sequenceIndex: 0,
  },
  {
    title: "resetSequenceOn user_message resets on every new message",
    orchestration: evalStep({ resetSequenceOn: ["user_message"] }),
    events: [msg("evaluate"), tool("critique"), msg("evaluate more")],
    sequenceIndex: 0,
    activeStep: "Eval",
  },
  {
    title: "a user-message reset lets the step lose to another candidate",
    orchestration: {
      steps: [
        { name: "Ideas", conditions: [{ type: "message_contains", value: "ideas" }] },
        {
          name: "Eval",
          conditions: [evaluate],
          sequence: ["critique", "debate"],
          resetSequenceOn: ["user_message"],
        },
      ],
    },
    events: [msg("evaluate"), tool("critique"), msg("ideas now")],
    sequenceIndex: 0,
    activeStep: "Ideas",
  },
  {
    title: "a user-message reset keeps the step when nothing else is a candidate",
    orchestration: {
      steps: [
        {
          name: "Eval",
          conditions: [evaluate],
          sequence: ["critique", "debate"],
          resetSequenceOn: ["user_message"],
        },
      ],
    },
    events: [msg("evaluate"), tool("critique"), msg("hmm")],
    sequenceIndex: 0,
    activeStep: "Eval",
  },
  {
    title: "a condition-object trigger resets only when it holds on the new message",
    orchestration: evalStep({
      resetSequenceOn: [{ type: "message_contains", value: "start over" }],
    }),
    events: [msg("evaluate"), tool("critique"), msg("go on")],
    sequenceIndex: 1,
  },
  {
    title: "a condition-object trigger that holds resets the sequence",
    orchestration: evalStep({
      resetSequenceOn: [{ type: "message_contains", value: "start over" }],
    }),
    events: [msg("evaluate"), tool("critique"), msg("please start over")],
    sequenceIndex: 0,
  },
  {
    title:
      "a bare condition type resets when the step's own condition of that type holds on the new message",
    orchestration: evalStep({ resetSequenceOn: ["message_contains"] }),
    events: [msg("evaluate"), tool("critique"), msg("evaluate this instead")],
    sequenceIndex: 0,
  },
  {
    title: "a bare condition type does not reset when its condition does not hold",
    orchestration: evalStep({ resetSequenceOn: ["message_contains"] }),
    events: [msg("evaluate"), tool("critique"), msg("carry on")],
    sequenceIndex: 1,
  },
  {
    title: "a tool trigger resets on the tool event and the tool then counts as the first position",
    orchestration: {
      enforcement: "guide",
      steps: [
        {
          name: "Eval",
          conditions: [evaluate],
          sequence: ["critique", "debate", "reflect"],
          resetSequenceOn: [{ type: "tool_used", value: "critique" }],
        },
      ],
    },
    events: [msg("evaluate"), tool("critique"), tool("debate"), tool("critique")],
    sequenceIndex: 1,
  },
  {
    title: "guide mode: a call outside the sequence runs, is recorded and does not advance",
    orchestration: { ...evalStep(), enforcement: "guide" },
    events: [msg("evaluate"), tool("reflect")],
    sequenceIndex: 0,
  },
];

describe("sequences and resetSequenceOn (spec §4)", () => {
  for (const row of rows) {
    it(row.title, () => {
      const state = run(orchestratorFor(row.orchestration), row.events);
      assert.equal(state.sequenceIndex, row.sequenceIndex);
      if (row.activeStep !== undefined) assert.equal(state.activeStep, row.activeStep);
    });
  }

  it("events explain advance, completion and the hand-over", () => {
    const orchestrator = orchestratorFor({
      defaultStep: "Base",
      steps: [
        { name: "Base" },
        {
          name: "Eval",
          conditions: [evaluate],
          sequence: ["critique", "reflect"],
          onComplete: "default",
        },
      ],
    });
    const state = run(orchestrator, [msg("evaluate"), tool("critique")]);
    assert.deepEqual(orchestrator.onToolUsed(state, "reflect").events, [
      { type: "tool_recorded", tool: "reflect", toolCount: 2 },
      {
        type: "sequence_advanced",
        step: "Eval",
        tool: "reflect",
        position: 2,
        length: 2,
        next: [],
      },
      { type: "sequence_completed", step: "Eval", tool: "reflect" },
      { type: "step_entered", step: "Base", from: "Eval", reason: "on_complete", conditions: [] },
    ]);
  });

  it("a reset event names its trigger and the index it left", () => {
    const orchestrator = orchestratorFor(evalStep({ resetSequenceOn: ["user_message"] }));
    const state = run(orchestrator, [msg("evaluate"), tool("critique")]);
    assert.deepEqual(orchestrator.onUserMessage(state, "evaluate more").events[0], {
      type: "sequence_reset",
      step: "Eval",
      fromIndex: 1,
      trigger: "user_message",
    });
  });

  it("guide mode records the tool and says the sequence expected another", () => {
    const orchestrator = orchestratorFor({ ...evalStep(), enforcement: "guide" });
    const state = run(orchestrator, [msg("evaluate")]);
    const decision = orchestrator.onToolUsed(state, "reflect");
    assert.deepEqual(decision.events, [
      { type: "tool_recorded", tool: "reflect", toolCount: 1 },
      { type: "tool_outside_sequence", step: "Eval", tool: "reflect", expected: ["critique"] },
    ]);
    assert.deepEqual(decision.state.recentlyUsedTools, ["reflect"]);
  });

  it("a misbehaving model cannot skip a position: every out-of-order call is refused until the expected one runs", () => {
    const orchestrator = orchestratorFor(evalStep());
    let state = run(orchestrator, [msg("evaluate")]);
    for (const name of ["reflect", "debate", "think", "search"]) {
      const decision = orchestrator.onToolUsed(state, name);
      assert.equal(decision.events[0]?.type, "tool_refused");
      assert.deepEqual(decision.state, state);
    }
    state = orchestrator.onToolUsed(state, "critique").state;
    assert.equal(state.sequenceIndex, 1);
  });
});
