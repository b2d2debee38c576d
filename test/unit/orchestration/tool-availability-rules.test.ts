import assert from "node:assert/strict";
import { describe, it } from "node:test";
import type {
  OrchestrationEvent,
  OrchestrationState,
  Orchestrator,
} from "../../../src/orchestration/index.ts";
import { orchestratorFor } from "./build-template.ts";

type Orchestration = Parameters<typeof orchestratorFor>[0];

const noSearch = { search: "not configured: no search provider" };
const research = { type: "message_contains", value: "research" } as const;
const debate = { type: "message_contains", value: "debate" } as const;

/** The cognitive reasoner's shape, reduced: a research step, a debate step, a default. */
const agent = (extra: Partial<Orchestration> = {}): Orchestration => ({
  defaultStep: "Default",
  steps: [
    {
      name: "Research",
      conditions: [research],
      availableTools: { allowed: ["search", "think", "reflect"] },
      sequence: ["search", "think", "reflect"],
      resetSequenceOn: ["user_message"],
      onComplete: "default",
    },
    {
      name: "Debate",
      conditions: [debate],
      availableTools: { allowed: ["search", "think", "debate"] },
      sequence: [["search", "think"], "debate"],
      onComplete: "default",
    },
    { name: "Default", availableTools: { allowed: ["*cognitive*"] } },
  ],
  ...extra,
});

function offline(orchestrator: Orchestrator): OrchestrationState {
  return orchestrator.onToolAvailability(orchestrator.initialState(), noSearch).state;
}

const ofType = <T extends OrchestrationEvent["type"]>(
  events: readonly OrchestrationEvent[],
  type: T,
): Extract<OrchestrationEvent, { type: T }>[] =>
  events.filter((event): event is Extract<OrchestrationEvent, { type: T }> => event.type === type);

describe("tools a worker cannot run", () => {
  it("are never offered, whatever the step allows, and the decision says why", () => {
    const orchestrator = orchestratorFor({ steps: [] });
    const state = offline(orchestrator);
    assert.ok(!orchestrator.allowedTools(state).includes("search"));
    const decision = orchestrator.toolDecisions(state).find((entry) => entry.tool === "search");
    assert.deepEqual(decision, {
      tool: "search",
      allowed: false,
      reason: "unavailable on this worker: not configured: no search provider",
    });
  });

  it("are refused even in guide mode, which runs other out-of-policy calls", () => {
    const orchestrator = orchestratorFor(agent({ enforcement: "guide" }));
    const state = orchestrator.onUserMessage(offline(orchestrator), "debate it").state;
    assert.equal(orchestrator.checkToolCall(state, "search").ok, false);
    assert.equal(orchestrator.checkToolCall(state, "reflect").ok, true);
  });

  it("reports each change once: unavailable, then available again", () => {
    const orchestrator = orchestratorFor(agent());
    const first = orchestrator.onToolAvailability(orchestrator.initialState(), noSearch);
    assert.deepEqual(first.events, [
      { type: "tool_unavailable", tool: "search", reason: noSearch.search },
    ]);
    const same = orchestrator.onToolAvailability(first.state, noSearch);
    assert.deepEqual(same.events, []);
    const back = orchestrator.onToolAvailability(same.state, {});
    assert.deepEqual(back.events, [{ type: "tool_available", tool: "search" }]);
    assert.equal(back.state.unavailableTools, undefined);
    assert.ok(orchestrator.allowedTools(back.state).length > 0);
  });

  it("ignore tools the agent does not have", () => {
    const orchestrator = orchestratorFor({ steps: [] }, ["think", "search"]);
    const decision = orchestrator.onToolAvailability(orchestrator.initialState(), {
      summarize: "not installed",
    });
    assert.deepEqual(decision.events, []);
    assert.equal(decision.state.unavailableTools, undefined);
  });
});

describe("a step whose sequence needs a tool that cannot run", () => {
  it("is not entered, and a step_skipped event names the step, the tool and the reason", () => {
    const orchestrator = orchestratorFor(agent());
    const decision = orchestrator.onUserMessage(offline(orchestrator), "research remote work");
    assert.equal(decision.state.activeStep, "Default");
    assert.deepEqual(ofType(decision.events, "step_skipped"), [
      {
        type: "step_skipped",
        step: "Research",
        tool: "search",
        reason: "unavailable on this worker: not configured: no search provider",
      },
    ]);
  });

  it("gives way to the next candidate whose tools can run", () => {
    const orchestrator = orchestratorFor(agent());
    const decision = orchestrator.onUserMessage(offline(orchestrator), "research and debate it");
    assert.equal(decision.state.activeStep, "Debate");
    assert.deepEqual(
      ofType(decision.events, "step_skipped").map((event) => event.step),
      ["Research"],
    );
  });

  it("is entered when one alternative of each position can run, offering only those", () => {
    const orchestrator = orchestratorFor(agent());
    const state = orchestrator.onUserMessage(offline(orchestrator), "debate it").state;
    assert.equal(state.activeStep, "Debate");
    assert.deepEqual(orchestrator.allowedTools(state), ["think"]);
    const check = orchestrator.checkToolCall(state, "search");
    assert.ok(!check.ok);
    assert.deepEqual(check.expected, ["think"]);
  });

  it("is skipped when a later position cannot run either: its sequence could never complete", () => {
    const orchestrator = orchestratorFor({
      defaultStep: "Default",
      steps: [
        {
          name: "Late",
          conditions: [research],
          sequence: ["think", "search"],
        },
        { name: "Default" },
      ],
    });
    const decision = orchestrator.onUserMessage(offline(orchestrator), "research");
    assert.equal(decision.state.activeStep, "Default");
    assert.equal(ofType(decision.events, "step_skipped")[0]?.tool, "search");
  });

  it("forced, requires the alternative that can run", () => {
    const orchestrator = orchestratorFor({
      steps: [
        {
          name: "Debate",
          conditions: [debate],
          sequence: [["search", "think"], "debate"],
          forceSequence: true,
        },
      ],
    });
    const state = orchestrator.onUserMessage(offline(orchestrator), "debate").state;
    assert.deepEqual(orchestrator.toolChoice(state), { type: "tool", toolName: "think" });
  });

  it("in progress when its tool becomes unavailable, is released to the default step", () => {
    const orchestrator = orchestratorFor(agent());
    const researching = orchestrator.onUserMessage(orchestrator.initialState(), "research").state;
    assert.equal(researching.activeStep, "Research");
    const decision = orchestrator.onToolAvailability(researching, noSearch);
    assert.equal(decision.state.activeStep, "Default");
    assert.deepEqual(ofType(decision.events, "sequence_released"), [
      {
        type: "sequence_released",
        step: "Research",
        tool: "search",
        cause: "unavailable",
        failures: 0,
        error: "unavailable on this worker: not configured: no search provider",
        to: "Default",
      },
    ]);
  });

  it("named by onComplete is skipped for the default step", () => {
    const orchestrator = orchestratorFor({
      defaultStep: "Default",
      steps: [
        {
          name: "Plan",
          conditions: [{ type: "message_contains", value: "plan" }],
          sequence: ["think"],
          onComplete: "Research",
        },
        { name: "Research", sequence: ["search"] },
        { name: "Default" },
      ],
    });
    let state = orchestrator.onUserMessage(offline(orchestrator), "plan it").state;
    const decision = orchestrator.onToolUsed(state, "think");
    state = decision.state;
    assert.equal(state.activeStep, "Default");
    assert.deepEqual(
      ofType(decision.events, "step_skipped").map((event) => event.step),
      ["Research"],
    );
  });
});

describe("a step without a sequence", () => {
  const steps = (allowed: string[]): Orchestration => ({
    defaultStep: "Default",
    steps: [
      { name: "Lookup", conditions: [research], availableTools: { allowed } },
      { name: "Default" },
    ],
  });

  it("whose allowed tools all cannot run is not entered", () => {
    const orchestrator = orchestratorFor(steps(["search"]));
    const decision = orchestrator.onUserMessage(offline(orchestrator), "research");
    assert.equal(decision.state.activeStep, "Default");
    assert.equal(ofType(decision.events, "step_skipped")[0]?.step, "Lookup");
  });

  it("with one allowed tool that can run is entered, offering only that one", () => {
    const orchestrator = orchestratorFor(steps(["search", "think"]));
    const state = orchestrator.onUserMessage(offline(orchestrator), "research").state;
    assert.equal(state.activeStep, "Lookup");
    assert.deepEqual(orchestrator.allowedTools(state), ["think"]);
  });

  it("that allows no tool at all (answer directly) is entered", () => {
    const orchestrator = orchestratorFor(steps([]));
    assert.equal(
      orchestrator.onUserMessage(offline(orchestrator), "research").state.activeStep,
      "Lookup",
    );
  });
});

describe("a sequence whose next tool keeps failing", () => {
  const fail = (orchestrator: Orchestrator, state: OrchestrationState, error = "HTTP 403") =>
    orchestrator.onToolFailed(state, "search", error);

  it("holds after one failure, and is released to the default step after two in a row", () => {
    const orchestrator = orchestratorFor(agent());
    let state = orchestrator.onUserMessage(orchestrator.initialState(), "research it").state;
    const once = fail(orchestrator, state);
    assert.deepEqual(once.events, []);
    assert.equal(once.state.activeStep, "Research");
    assert.deepEqual(orchestrator.allowedTools(once.state), ["search"]);
    state = orchestrator.onUserMessage(once.state, "and then?").state;
    assert.equal(state.activeStep, "Research", "without a release the step would hold");
    const twice = fail(orchestrator, state, "SearXNG answered HTTP 403");
    assert.equal(twice.state.activeStep, "Default");
    assert.deepEqual(twice.events[0], {
      type: "sequence_released",
      step: "Research",
      tool: "search",
      cause: "failed",
      failures: 2,
      error: "SearXNG answered HTTP 403",
      to: "Default",
    });
    assert.deepEqual(
      twice.events.slice(1).map((event) => event.type),
      ["step_entered"],
    );
    assert.ok(!orchestrator.allowedTools(twice.state).includes("search"));
  });

  it("releases after the template's releaseAfterFailures", () => {
    const orchestrator = orchestratorFor(agent({ releaseAfterFailures: 3 }));
    let state = orchestrator.onUserMessage(orchestrator.initialState(), "research").state;
    state = fail(orchestrator, fail(orchestrator, state).state).state;
    assert.equal(state.activeStep, "Research");
    assert.equal(fail(orchestrator, state).state.activeStep, "Default");
  });

  it("is entered again by a later matching message, and one more failure releases it", () => {
    const orchestrator = orchestratorFor(agent());
    let state = orchestrator.onUserMessage(orchestrator.initialState(), "research").state;
    state = fail(orchestrator, fail(orchestrator, state).state).state;
    assert.equal(state.activeStep, "Default");
    // Within the same turn, the message's evidence does not bring the step back.
    const sameTurn = orchestrator.onToolUsed(state, "think");
    assert.equal(sameTurn.state.activeStep, "Default");
    state = orchestrator.onUserMessage(sameTurn.state, "research again").state;
    assert.equal(state.activeStep, "Research");
    assert.deepEqual(orchestrator.allowedTools(state), ["search"]);
    const third = fail(orchestrator, state);
    assert.equal(third.state.activeStep, "Default");
    assert.deepEqual(
      ofType(third.events, "sequence_released").map((event) => event.failures),
      [3],
    );
  });

  it("counts failures in a row only: a success clears the count", () => {
    const orchestrator = orchestratorFor(agent());
    let state = orchestrator.onUserMessage(orchestrator.initialState(), "research").state;
    state = fail(orchestrator, state).state;
    state = orchestrator.onToolUsed(state, "search").state;
    assert.equal(state.toolFailures, undefined);
    assert.equal(state.sequenceIndex, 1);
  });

  it("moves on to another alternative of the position instead of releasing", () => {
    const orchestrator = orchestratorFor(agent());
    let state = orchestrator.onUserMessage(orchestrator.initialState(), "debate").state;
    assert.deepEqual(orchestrator.allowedTools(state), ["think", "search"]);
    state = fail(orchestrator, fail(orchestrator, state).state).state;
    assert.equal(state.activeStep, "Debate");
    assert.deepEqual(orchestrator.allowedTools(state), ["think"]);
  });

  it("of the default step itself gives up its sequence, which restarts on the next message", () => {
    const orchestrator = orchestratorFor({
      defaultStep: "Default",
      steps: [{ name: "Default", sequence: ["search", "think"] }],
    });
    let state = orchestrator.initialState();
    state = orchestrator.onUserMessage(state, "hello").state;
    const released = fail(orchestrator, fail(orchestrator, state).state);
    assert.equal(released.state.activeStep, "Default");
    assert.ok(released.state.completedAt !== undefined, "no longer holds control");
    assert.equal(ofType(released.events, "sequence_released")[0]?.to, undefined);
    state = orchestrator.onUserMessage(released.state, "again").state;
    assert.deepEqual(orchestrator.allowedTools(state), ["search"]);
  });

  it("with no default step hands control to no step (every tool that can run)", () => {
    const orchestrator = orchestratorFor({
      steps: [{ name: "Research", conditions: [research], sequence: ["search", "think"] }],
    });
    let state = orchestrator.onUserMessage(orchestrator.initialState(), "research").state;
    state = fail(orchestrator, fail(orchestrator, state).state).state;
    assert.equal(state.activeStep, undefined);
    assert.ok(!orchestrator.allowedTools(state).includes("search"));
    assert.ok(orchestrator.allowedTools(state).includes("think"));
  });

  it("keeps the state plain JSON that round-trips unchanged", () => {
    const orchestrator = orchestratorFor(agent());
    let state = offline(orchestrator);
    state = orchestrator.onUserMessage(state, "debate").state;
    state = orchestrator.onToolFailed(state, "think", "boom").state;
    assert.deepEqual(JSON.parse(JSON.stringify(state)), state);
  });
});

describe("the default step", () => {
  it("is entered even when every tool it allows cannot run: it is the fallback", () => {
    const orchestrator = orchestratorFor({
      defaultStep: "Default",
      steps: [
        {
          name: "Default",
          conditions: [research],
          availableTools: { allowed: ["search"] },
        },
        { name: "Other", conditions: [{ type: "message_contains", value: "other" }] },
      ],
    });
    let state = orchestrator.onUserMessage(offline(orchestrator), "other").state;
    assert.equal(state.activeStep, "Other");
    const decision = orchestrator.onUserMessage(state, "research");
    state = decision.state;
    assert.equal(state.activeStep, "Default");
    assert.deepEqual(ofType(decision.events, "step_skipped"), []);
    assert.deepEqual(orchestrator.allowedTools(state), []);
  });
});
