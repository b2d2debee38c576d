import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { msg, orchestratorFor, run, tool, type Step } from "./build-template.ts";

type Orchestration = Parameters<typeof orchestratorFor>[0];

interface Row {
  title: string;
  orchestration: Orchestration;
  events: Step[];
  activeStep: string | undefined;
  sequenceIndex?: number;
  complete?: boolean;
}

const evaluate = { type: "message_contains", value: "evaluate" } as const;
const ideas = { type: "message_contains", value: "ideas" } as const;

const rows: Row[] = [
  {
    title: "with no steps there is no active step",
    orchestration: { steps: [] },
    events: [msg("hello"), tool("think")],
    activeStep: undefined,
  },
  {
    title: "the default step is active from the start",
    orchestration: { defaultStep: "Base", steps: [{ name: "Base" }] },
    events: [],
    activeStep: "Base",
  },
  {
    title: "isDefault names the default step too",
    orchestration: {
      steps: [
        { name: "A", conditions: [evaluate] },
        { name: "Base", isDefault: true },
      ],
    },
    events: [msg("hello")],
    activeStep: "Base",
  },
  {
    title: "rule 2: the first candidate in configuration order wins",
    orchestration: {
      steps: [
        { name: "First", conditions: [{ type: "message_contains", value: "plan" }] },
        { name: "Second", conditions: [{ type: "message_contains", value: "plan" }] },
      ],
    },
    events: [msg("plan it")],
    activeStep: "First",
  },
  {
    title: "rule 2: all conditions of a step must hold",
    orchestration: {
      steps: [
        { name: "Both", conditions: [evaluate, { type: "tool_used", value: "think" }] },
        { name: "One", conditions: [evaluate] },
      ],
    },
    events: [msg("evaluate this")],
    activeStep: "One",
  },
  {
    title:
      "rule 2: an active step that is still a candidate stays even when an earlier step also holds",
    orchestration: {
      steps: [
        { name: "Early", conditions: [{ type: "message_contains", value: "again" }] },
        { name: "Late", conditions: [{ type: "tool_used", value: "think" }] },
      ],
    },
    events: [tool("think"), msg("again")],
    activeStep: "Late",
  },
  {
    title: "rule 3: with no candidate the active step stays",
    orchestration: {
      steps: [
        { name: "Eval", conditions: [evaluate] },
        { name: "Base", isDefault: true },
      ],
    },
    events: [msg("evaluate"), msg("something else")],
    activeStep: "Eval",
  },
  {
    title: "rule 4: entering a step on a user message starts its sequence at 0",
    orchestration: {
      steps: [{ name: "Eval", conditions: [evaluate], sequence: ["critique", "debate"] }],
    },
    events: [msg("evaluate")],
    activeStep: "Eval",
    sequenceIndex: 0,
  },
  {
    title: "rule 4: the tool event that activates a step counts as its first position",
    orchestration: {
      steps: [
        {
          name: "After",
          conditions: [{ type: "tool_used", value: "think" }],
          sequence: ["think", "reflect"],
        },
      ],
    },
    events: [tool("think")],
    activeStep: "After",
    sequenceIndex: 1,
  },
  {
    title:
      "rule 4: an activating tool that the first position does not accept leaves the index at 0",
    orchestration: {
      steps: [
        {
          name: "After",
          conditions: [{ type: "tool_used", value: "think" }],
          sequence: ["reflect", "critique"],
        },
      ],
    },
    events: [tool("think")],
    activeStep: "After",
    sequenceIndex: 0,
  },
  {
    title: "rule 4: a step activated by sequence_match starts complete",
    orchestration: {
      steps: [
        { name: "Done", conditions: [{ type: "sequence_match" }], sequence: ["think", "reflect"] },
      ],
    },
    events: [tool("think"), tool("reflect")],
    activeStep: "Done",
    sequenceIndex: 2,
    complete: true,
  },
  {
    title:
      "rule 1: a step with a sequence in progress keeps control although another step's conditions hold",
    orchestration: {
      steps: [
        { name: "Ideas", conditions: [ideas] },
        { name: "Eval", conditions: [evaluate], sequence: ["critique", "debate"] },
      ],
    },
    events: [msg("evaluate"), tool("critique"), msg("ideas please")],
    activeStep: "Eval",
    sequenceIndex: 1,
  },
  {
    title: "rule 1: a sequence not yet started also keeps control",
    orchestration: {
      steps: [
        { name: "Ideas", conditions: [ideas] },
        { name: "Eval", conditions: [evaluate], sequence: ["critique", "debate"] },
      ],
    },
    events: [msg("evaluate"), msg("ideas please")],
    activeStep: "Eval",
    sequenceIndex: 0,
  },
  {
    title:
      'rule 3: a completed step with onComplete "default" hands over to the default step at once',
    orchestration: {
      defaultStep: "Base",
      steps: [
        { name: "Base" },
        {
          name: "Eval",
          conditions: [evaluate],
          sequence: ["critique", "debate"],
          onComplete: "default",
        },
      ],
    },
    events: [msg("evaluate"), tool("critique"), tool("debate")],
    activeStep: "Base",
    sequenceIndex: 0,
  },
  {
    title: "rule 3: onComplete naming a step enters that step",
    orchestration: {
      steps: [
        { name: "Eval", conditions: [evaluate], sequence: ["critique"], onComplete: "Wrap" },
        { name: "Wrap", sequence: ["summarize"] },
      ],
    },
    events: [msg("evaluate"), tool("critique")],
    activeStep: "Wrap",
    sequenceIndex: 0,
  },
  {
    title: 'rule 3: onComplete "stay" (the default) keeps the completed step',
    orchestration: {
      defaultStep: "Base",
      steps: [{ name: "Base" }, { name: "Eval", conditions: [evaluate], sequence: ["critique"] }],
    },
    events: [msg("evaluate"), tool("critique")],
    activeStep: "Eval",
    sequenceIndex: 1,
    complete: true,
  },
  {
    title: "spec §3: the evidence that activated a finished step does not keep it a candidate",
    orchestration: {
      defaultStep: "Base",
      steps: [
        { name: "Base" },
        { name: "Eval", conditions: [evaluate], sequence: ["critique"], onComplete: "default" },
      ],
    },
    events: [msg("evaluate"), tool("critique"), tool("think")],
    activeStep: "Base",
  },
  {
    title: "spec §3: the same evidence does not re-activate a finished step later",
    orchestration: {
      defaultStep: "Base",
      steps: [
        { name: "Base" },
        {
          name: "Search",
          conditions: [{ type: "tool_used", value: "search" }],
          sequence: ["search", "think"],
          onComplete: "default",
        },
      ],
    },
    events: [tool("search"), tool("think"), msg("next"), tool("reflect")],
    activeStep: "Base",
  },
  {
    title: "spec §3: new evidence after completion re-activates a finished step",
    orchestration: {
      defaultStep: "Base",
      steps: [
        { name: "Base" },
        {
          name: "Search",
          conditions: [{ type: "tool_used", value: "search" }],
          sequence: ["search", "think"],
          onComplete: "default",
        },
      ],
    },
    events: [tool("search"), tool("think"), tool("search")],
    activeStep: "Search",
    sequenceIndex: 1,
  },
  {
    title:
      "rule 5: a new user message that makes a completed step's conditions hold restarts it at 0",
    orchestration: {
      steps: [{ name: "Eval", conditions: [evaluate], sequence: ["critique", "debate"] }],
    },
    events: [msg("evaluate"), tool("critique"), tool("debate"), msg("evaluate again")],
    activeStep: "Eval",
    sequenceIndex: 0,
  },
  {
    title:
      "rule 5: a user message that does not make the conditions hold leaves the sequence complete",
    orchestration: {
      steps: [{ name: "Eval", conditions: [evaluate], sequence: ["critique", "debate"] }],
    },
    events: [msg("evaluate"), tool("critique"), tool("debate"), msg("thanks")],
    activeStep: "Eval",
    sequenceIndex: 2,
    complete: true,
  },
  {
    title: "a completed default step without conditions restarts on the next user message",
    orchestration: { defaultStep: "Base", steps: [{ name: "Base", sequence: ["think"] }] },
    events: [msg("first"), tool("think"), msg("second")],
    activeStep: "Base",
    sequenceIndex: 0,
  },
  {
    title: "a candidate step wins over restarting a completed default step",
    orchestration: {
      defaultStep: "Base",
      steps: [
        { name: "Base", sequence: ["think"] },
        { name: "Eval", conditions: [evaluate] },
      ],
    },
    events: [msg("first"), tool("think"), msg("evaluate it")],
    activeStep: "Eval",
  },
  {
    title: "the step changes within a turn, right after the tool that triggers it",
    orchestration: {
      defaultStep: "Gather",
      steps: [
        { name: "Gather", availableTools: { allowed: ["search", "think"] } },
        {
          name: "Analyse",
          conditions: [{ type: "tool_used", value: "search", window: 1 }],
          availableTools: { allowed: ["think"] },
        },
      ],
    },
    events: [msg("research x"), tool("search")],
    activeStep: "Analyse",
  },
];

describe("step activation (spec §4)", () => {
  for (const row of rows) {
    it(row.title, () => {
      const state = run(orchestratorFor(row.orchestration), row.events);
      assert.equal(state.activeStep, row.activeStep);
      if (row.sequenceIndex !== undefined) assert.equal(state.sequenceIndex, row.sequenceIndex);
      assert.equal(state.completedAt !== undefined, row.complete ?? false);
    });
  }

  it("step_entered events name the conditions that held and the step left", () => {
    const orchestrator = orchestratorFor({
      defaultStep: "Base",
      steps: [{ name: "Base" }, { name: "Eval", conditions: [evaluate] }],
    });
    const { events } = orchestrator.onUserMessage(orchestrator.initialState(), "evaluate this");
    assert.deepEqual(events, [
      {
        type: "step_entered",
        step: "Eval",
        from: "Base",
        reason: "conditions",
        conditions: ['message_contains "evaluate"'],
      },
    ]);
  });

  it("the turn counter and latest user message follow each user message", () => {
    const orchestrator = orchestratorFor({ steps: [] });
    const state = run(orchestrator, [msg("one"), tool("think"), msg("two")]);
    assert.equal(state.turn, 2);
    assert.equal(state.lastUserMessage, "two");
    assert.deepEqual(state.recentlyUsedTools, ["think"]);
    assert.equal(state.toolCount, 1);
  });

  it("recentlyUsedTools keeps the last historyLimit events, duplicates included, while toolCount counts all", () => {
    const orchestrator = orchestratorFor({ historyLimit: 3, steps: [] });
    const state = run(orchestrator, [
      tool("think"),
      tool("think"),
      tool("reflect"),
      tool("think"),
      tool("think"),
    ]);
    assert.deepEqual(state.recentlyUsedTools, ["reflect", "think", "think"]);
    assert.equal(state.toolCount, 5);
  });
});
