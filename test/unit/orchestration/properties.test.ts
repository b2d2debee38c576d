import assert from "node:assert/strict";
import { describe, it } from "node:test";
import fc from "fast-check";
import {
  conditionTypes,
  createOrchestrator,
  matchesPattern,
  orchestrationStateSchema,
  type AgentTemplate,
  type OrchestrationEvent,
  type OrchestrationState,
  type Orchestrator,
  type ReportedTokenUsage,
} from "../../../src/orchestration/index.ts";
import { parseAgentTemplate } from "../../../src/agents/index.ts";
import { toolCatalogueEntries } from "../../../src/tools/index.ts";

// Property-based checks of the orchestrator's invariants (spec §2, §5, §6, §8) over random
// valid templates and random sessions. Every run is reproducible from the seed fast-check prints.

const numRuns = 120;
const catalogueNames = toolCatalogueEntries.map((entry) => entry.name);
const patterns = ["*cognitive*", "*research*", "*writing*", "s*", "*e"];
const words = [
  "evaluate",
  "Compare",
  "research",
  "debate",
  "ideas",
  "hello",
  "please",
  "the",
  "sources",
  "critique",
];
const regexConditions = [
  { value: "\\b(evaluat\\w*|critique)\\b", flags: "i" },
  { value: "^compare" },
  { value: "research|sources?", flags: "i" },
  { value: "\\bideas?\\b" },
  { value: "debate$", flags: "im" },
];

type Json = Record<string, unknown>;

function entryOf(name: string): { name: string; category?: string } {
  return toolCatalogueEntries.find((entry) => entry.name === name) ?? { name };
}

function permits(policy: { allowed?: string[]; denied?: string[] }, tool: string): boolean {
  const entry = entryOf(tool);
  const allowed =
    policy.allowed === undefined || policy.allowed.some((p) => matchesPattern(p, entry));
  return allowed && !(policy.denied ?? []).some((p) => matchesPattern(p, entry));
}

function conditionArb(tools: string[]): fc.Arbitrary<Json> {
  const tool = fc.constantFrom(...tools);
  const word = fc.constantFrom(...words);
  const window = fc.integer({ min: 1, max: 3 });
  const options = { requiredKeys: ["type", "value"] as ("type" | "value")[] };
  return fc.oneof(
    fc.record({ type: fc.constant("tool_used"), value: tool, window }, options),
    fc.record({ type: fc.constant("not_recently_used"), value: tool, window }),
    fc.record(
      { type: fc.constant("message_contains"), value: word, caseSensitive: fc.boolean() },
      options,
    ),
    fc.record(
      { type: fc.constant("message_starts_with"), value: word, caseSensitive: fc.boolean() },
      options,
    ),
    fc.constantFrom(...regexConditions).map((regex) => ({ type: "message_regex", ...regex })),
    fc.constant({ type: "sequence_match" }),
  );
}

interface StepDraft {
  conditions: Json[];
  availableTools: { allowed?: string[]; denied?: string[] } | undefined;
  sequence: (string | string[])[] | undefined;
  resetSequenceOn: unknown[];
  onComplete: "stay" | "default" | number | undefined;
  forceSequence: boolean | undefined;
}

function stepArb(tools: string[]): fc.Arbitrary<StepDraft> {
  const names = [...tools, ...patterns];
  const policy = fc.option(
    fc.record(
      {
        allowed: fc.subarray(names, { maxLength: 4 }),
        denied: fc.subarray(names, { maxLength: 2 }),
      },
      { requiredKeys: [] },
    ),
    { nil: undefined },
  );
  return policy.chain((availableTools) => {
    const permitted = tools.filter((tool) => permits(availableTools ?? {}, tool));
    const position =
      permitted.length === 0
        ? fc.constant<string | string[]>("unused")
        : fc.oneof(
            fc.constantFrom<string | string[]>(...permitted),
            fc.subarray(permitted, { minLength: 1, maxLength: Math.min(2, permitted.length) }),
          );
    const sequence =
      permitted.length === 0
        ? fc.constant(undefined)
        : fc.option(fc.array(position, { minLength: 1, maxLength: 3 }), { nil: undefined });
    return fc.record({
      conditions: fc.array(conditionArb(tools), { maxLength: 2 }),
      availableTools: fc.constant(availableTools),
      sequence,
      resetSequenceOn: fc.array(
        fc.oneof(
          fc.constant("user_message"),
          fc.constantFrom(...conditionTypes),
          conditionArb(tools),
        ),
        { maxLength: 2 },
      ),
      onComplete: fc.option(fc.oneof(fc.constantFrom("stay", "default"), fc.nat(5)), {
        nil: undefined,
      }),
      forceSequence: fc.option(fc.boolean(), { nil: undefined }),
    });
  });
}

/** Turns drafts into a template that should pass the load-time checks. */
function templateFromDrafts(
  tools: string[],
  drafts: StepDraft[],
  defaultChoice: { index: number; as: "defaultStep" | "isDefault" } | undefined,
  enforcement: string | undefined,
  historyLimit: number | undefined,
): Json {
  const names = drafts.map((_, index) => `Step${index}`);
  const defaultIndex = defaultChoice === undefined ? undefined : defaultChoice.index % names.length;
  const steps = drafts.map((draft, index) => {
    const hasSequence = draft.sequence !== undefined;
    const conditions = draft.conditions.filter((c) => hasSequence || c.type !== "sequence_match");
    const ownTypes = new Set(conditions.map((c) => c.type));
    const resetSequenceOn = hasSequence
      ? draft.resetSequenceOn.filter(
          (trigger) =>
            typeof trigger !== "string" || trigger === "user_message" || ownTypes.has(trigger),
        )
      : [];
    let onComplete: string | undefined;
    if (typeof draft.onComplete === "number") onComplete = names[draft.onComplete % names.length];
    else if (draft.onComplete !== "default" || defaultIndex !== undefined)
      onComplete = draft.onComplete;
    return {
      name: names[index],
      ...(conditions.length > 0 ? { conditions } : {}),
      ...(draft.availableTools === undefined ? {} : { availableTools: draft.availableTools }),
      ...(draft.sequence === undefined ? {} : { sequence: draft.sequence }),
      ...(resetSequenceOn.length > 0 ? { resetSequenceOn } : {}),
      ...(onComplete === undefined ? {} : { onComplete }),
      ...(draft.forceSequence === undefined ? {} : { forceSequence: draft.forceSequence }),
      ...(defaultChoice?.as === "isDefault" && defaultIndex === index ? { isDefault: true } : {}),
    };
  });
  const orchestration = {
    ...(defaultChoice?.as === "defaultStep" && defaultIndex !== undefined
      ? { defaultStep: names[defaultIndex] }
      : {}),
    ...(enforcement === undefined ? {} : { enforcement }),
    ...(historyLimit === undefined ? {} : { historyLimit }),
    steps,
  };
  return { id: "generated", name: "Generated", tools, orchestration };
}

function tryParse(json: Json): AgentTemplate | undefined {
  try {
    return parseAgentTemplate(json, { tools: toolCatalogueEntries });
  } catch {
    return undefined;
  }
}

interface Generated {
  json: Json;
  template: AgentTemplate;
}

const templateArb: fc.Arbitrary<Generated> = fc
  .record({
    tools: fc.shuffledSubarray(catalogueNames, { minLength: 1, maxLength: 6 }),
    stepCount: fc.integer({ min: 1, max: 6 }),
  })
  .chain(({ tools, stepCount }) =>
    fc
      .record({
        drafts: fc.array(stepArb(tools), { minLength: stepCount, maxLength: stepCount }),
        defaultChoice: fc.option(
          fc.record({ index: fc.nat(5), as: fc.constantFrom("defaultStep", "isDefault") }),
          { nil: undefined, freq: 2 },
        ),
        enforcement: fc.option(fc.constantFrom("strict", "guide"), { nil: undefined }),
        historyLimit: fc.option(fc.integer({ min: 1, max: 6 }), { nil: undefined }),
      })
      .map(({ drafts, defaultChoice, enforcement, historyLimit }) =>
        templateFromDrafts(tools, drafts, defaultChoice, enforcement, historyLimit),
      ),
  )
  // Plain JSON, as read from a file: no undefined values, ordinary prototypes.
  .map((json) => JSON.parse(JSON.stringify(json)) as Json)
  .map((json) => ({ json, template: tryParse(json) }))
  .filter((generated): generated is Generated => generated.template !== undefined);

type SessionEvent =
  | { kind: "user"; text: string }
  | { kind: "tool"; name: string }
  | { kind: "allowed-tool"; pick: number }
  | { kind: "usage"; usage: ReportedTokenUsage };

const tokenNumberArb = fc.oneof(
  fc.constantFrom(NaN, Infinity, -Infinity, -1, 0, null, undefined, 1e12),
  fc.integer({ min: -1000, max: 100_000 }),
  fc.double({ min: -1e12, max: 1e12, noNaN: true }),
);

const usageArb: fc.Arbitrary<ReportedTokenUsage> = fc.record(
  { inputTokens: tokenNumberArb, outputTokens: tokenNumberArb, totalTokens: tokenNumberArb },
  { requiredKeys: [], noNullPrototype: true },
);

function sessionArb(tools: string[]): fc.Arbitrary<SessionEvent[]> {
  const text = fc
    .array(fc.constantFrom(...words), { minLength: 1, maxLength: 4 })
    .map((chosen) => chosen.join(" "));
  const event: fc.Arbitrary<SessionEvent> = fc.oneof(
    { weight: 3, arbitrary: text.map((t) => ({ kind: "user" as const, text: t })) },
    {
      weight: 3,
      arbitrary: fc
        .constantFrom(...tools, ...catalogueNames, "unknown_tool")
        .map((name) => ({ kind: "tool" as const, name })),
    },
    // Calls a tool the orchestrator offers right now, so sequences actually advance.
    { weight: 4, arbitrary: fc.nat(7).map((pick) => ({ kind: "allowed-tool" as const, pick })) },
    { weight: 1, arbitrary: usageArb.map((usage) => ({ kind: "usage" as const, usage })) },
  );
  return fc.array(event, { maxLength: 30 });
}

const scenarioArb = templateArb.chain((generated) =>
  sessionArb(generated.template.tools).map((events) => ({ ...generated, events })),
);

function deepFreeze<T>(value: T): T {
  if (typeof value === "object" && value !== null && !Object.isFrozen(value)) {
    Object.freeze(value);
    for (const child of Object.values(value)) deepFreeze(child);
  }
  return value;
}

interface Transition {
  before: OrchestrationState;
  event: SessionEvent;
  /** The tool called, for tool events. */
  tool?: string;
  check?: ReturnType<Orchestrator["checkToolCall"]>;
  after: OrchestrationState;
  events: OrchestrationEvent[];
  allowedBefore: string[];
  toolChoice: ReturnType<Orchestrator["toolChoice"]>;
}

/**
 * Plays a session. Every state is deep-frozen before it is handed back to the orchestrator, so
 * any mutation of an input throws; each input is also compared with a copy taken before the call.
 */
function playSession(orchestrator: Orchestrator, events: readonly SessionEvent[]): Transition[] {
  let state = deepFreeze(orchestrator.initialState());
  const transitions: Transition[] = [];
  for (const event of events) {
    const before = state;
    const snapshot = structuredClone(before);
    const allowedBefore = orchestrator.allowedTools(before);
    const toolChoice = orchestrator.toolChoice(before);
    let transition: Transition;
    if (event.kind === "user") {
      const decision = orchestrator.onUserMessage(before, event.text);
      transition = { before, event, ...decision, after: decision.state, allowedBefore, toolChoice };
    } else if (event.kind === "usage") {
      const usage = deepFreeze(structuredClone(event.usage));
      const after = orchestrator.onTokenUsage(before, usage);
      assert.deepEqual(usage, event.usage, "onTokenUsage changed the usage it was given");
      transition = { before, event, after, events: [], allowedBefore, toolChoice };
    } else {
      const agentTools = orchestrator.template.tools;
      const tool =
        event.kind === "tool"
          ? event.name
          : (allowedBefore[event.pick % Math.max(1, allowedBefore.length)] ??
            agentTools[event.pick % Math.max(1, agentTools.length)] ??
            "unknown_tool");
      const check = orchestrator.checkToolCall(before, tool);
      const decision = orchestrator.onToolUsed(before, tool);
      transition = {
        before,
        event,
        tool,
        check,
        events: decision.events,
        after: decision.state,
        allowedBefore,
        toolChoice,
      };
    }
    assert.deepEqual(before, snapshot, "an orchestrator method changed the state it was given");
    transitions.push(transition);
    state = deepFreeze(transition.after);
  }
  return transitions;
}

function statesOf(orchestrator: Orchestrator, transitions: Transition[]): OrchestrationState[] {
  return [orchestrator.initialState(), ...transitions.map((t) => t.after)];
}

/** Runs `check` on every generated scenario, with a fresh orchestrator over a frozen template. */
function forEveryScenario(
  check: (
    scenario: { json: Json; template: AgentTemplate; events: SessionEvent[] },
    orchestrator: Orchestrator,
    transitions: Transition[],
  ) => void,
): void {
  fc.assert(
    fc.property(scenarioArb, (scenario) => {
      const orchestrator = createOrchestrator(deepFreeze(scenario.template), toolCatalogueEntries);
      check(scenario, orchestrator, playSession(orchestrator, scenario.events));
    }),
    { numRuns },
  );
}

function isSubsequence(part: readonly string[], whole: readonly string[]): boolean {
  let at = 0;
  for (const item of part) {
    at = whole.indexOf(item, at);
    if (at === -1) return false;
    at += 1;
  }
  return true;
}

describe("orchestrator properties over random templates and sessions", () => {
  it("offers only the agent's own tools, each once, in template order", () => {
    forEveryScenario((_scenario, orchestrator, transitions) => {
      for (const state of statesOf(orchestrator, transitions)) {
        const allowed = orchestrator.allowedTools(state);
        assert.ok(
          isSubsequence(allowed, orchestrator.template.tools),
          `allowedTools ${JSON.stringify(allowed)} is not an ordered subset of ${JSON.stringify(orchestrator.template.tools)}`,
        );
      }
    });
  });

  it("offers every agent tool when no step is active", () => {
    forEveryScenario((_scenario, orchestrator, transitions) => {
      for (const state of statesOf(orchestrator, transitions)) {
        if (state.activeStep !== undefined) continue;
        assert.deepEqual(orchestrator.allowedTools(state), orchestrator.template.tools);
      }
    });
  });

  it("in strict mode accepts exactly the offered tools and leaves the state unchanged on a refusal", () => {
    forEveryScenario((_scenario, orchestrator, transitions) => {
      for (const transition of transitions) {
        if (transition.tool === undefined || transition.check === undefined) continue;
        if (transition.check.ok) {
          assert.equal(transition.after.toolCount, transition.before.toolCount + 1);
          continue;
        }
        assert.deepEqual(transition.after, transition.before);
        assert.deepEqual(transition.events, [
          {
            type: "tool_refused",
            tool: transition.tool,
            reason: transition.check.reason,
            expected: transition.check.expected,
          },
        ]);
      }
      if (orchestrator.template.orchestration.enforcement !== "strict") return;
      for (const transition of transitions) {
        for (const tool of [...catalogueNames, "unknown_tool"]) {
          assert.equal(
            orchestrator.checkToolCall(transition.before, tool).ok,
            transition.allowedBefore.includes(tool),
            `strict checkToolCall("${tool}") disagrees with allowedTools ${JSON.stringify(transition.allowedBefore)}`,
          );
        }
      }
    });
  });

  it("in guide mode lets every agent tool run and refuses only tools the agent does not have", () => {
    forEveryScenario((_scenario, orchestrator, transitions) => {
      if (orchestrator.template.orchestration.enforcement !== "guide") return;
      for (const state of statesOf(orchestrator, transitions)) {
        for (const tool of [...catalogueNames, "unknown_tool"]) {
          assert.equal(
            orchestrator.checkToolCall(state, tool).ok,
            orchestrator.template.tools.includes(tool),
            `guide checkToolCall("${tool}")`,
          );
        }
      }
    });
  });

  it("keeps sequenceIndex within the active step's sequence (0 without one)", () => {
    forEveryScenario((_scenario, orchestrator, transitions) => {
      for (const state of statesOf(orchestrator, transitions)) {
        const step = orchestrator.template.orchestration.steps.find(
          (candidate) => candidate.name === state.activeStep,
        );
        if (state.activeStep !== undefined) assert.notEqual(step, undefined, "unknown activeStep");
        const length = step?.sequence?.length ?? 0;
        if (length === 0) assert.equal(state.sequenceIndex, 0);
        else assert.ok(state.sequenceIndex <= length, `index ${state.sequenceIndex} > ${length}`);
      }
    });
  });

  it("gives the same outputs for the same inputs, with the same or a new orchestrator", () => {
    forEveryScenario((scenario, orchestrator, transitions) => {
      assert.deepEqual(playSession(orchestrator, scenario.events), transitions);
      const sameTemplate = createOrchestrator(scenario.template, toolCatalogueEntries);
      assert.deepEqual(playSession(sameTemplate, scenario.events), transitions);
      const reparsed = createOrchestrator(
        parseAgentTemplate(scenario.json, { tools: toolCatalogueEntries }),
        toolCatalogueEntries,
      );
      assert.deepEqual(playSession(reparsed, scenario.events), transitions);
    });
  });

  it("produces states that survive a JSON round trip and match the state schema", () => {
    forEveryScenario((_scenario, orchestrator, transitions) => {
      for (const state of statesOf(orchestrator, transitions)) {
        assert.deepEqual(JSON.parse(JSON.stringify(state)), state);
        assert.deepEqual(orchestrationStateSchema.parse(state), state);
      }
    });
  });

  it("continues a session identically from a JSON copy of its state", () => {
    forEveryScenario((scenario, orchestrator, transitions) => {
      const cut = Math.floor(scenario.events.length / 2);
      const resumedFrom = transitions[cut - 1]?.after ?? orchestrator.initialState();
      let state = JSON.parse(JSON.stringify(resumedFrom)) as OrchestrationState;
      for (const transition of transitions.slice(cut)) {
        const { event } = transition;
        if (event.kind === "user") state = orchestrator.onUserMessage(state, event.text).state;
        else if (event.kind === "usage") state = orchestrator.onTokenUsage(state, event.usage);
        else state = orchestrator.onToolUsed(state, transition.tool ?? "").state;
        assert.deepEqual(state, transition.after);
      }
    });
  });

  it("never mutates the template it parses or runs", () => {
    fc.assert(
      fc.property(templateArb, ({ json }) => {
        const copy = structuredClone(json);
        const template = parseAgentTemplate(json, { tools: toolCatalogueEntries });
        assert.deepEqual(json, copy);
        const templateCopy = structuredClone(template);
        const orchestrator = createOrchestrator(template, toolCatalogueEntries);
        playSession(orchestrator, [
          { kind: "user", text: "evaluate research ideas" },
          { kind: "allowed-tool", pick: 0 },
          { kind: "allowed-tool", pick: 1 },
          { kind: "user", text: "compare debate" },
          { kind: "allowed-tool", pick: 2 },
        ]);
        assert.deepEqual(template, templateCopy);
      }),
      { numRuns },
    );
  });

  it("keeps at most historyLimit recent tools, in order, and counts every recorded tool", () => {
    forEveryScenario((_scenario, orchestrator, transitions) => {
      const limit = orchestrator.template.orchestration.historyLimit;
      const recorded: string[] = [];
      for (const transition of transitions) {
        if (transition.check?.ok === true && transition.tool !== undefined)
          recorded.push(transition.tool);
        const { after } = transition;
        assert.ok(after.recentlyUsedTools.length <= limit);
        assert.equal(after.toolCount, recorded.length);
        assert.deepEqual(after.recentlyUsedTools, recorded.slice(-limit));
      }
    });
  });

  it("counts one turn per user message", () => {
    forEveryScenario((_scenario, _orchestrator, transitions) => {
      let turns = 0;
      for (const transition of transitions) {
        if (transition.event.kind === "user") turns += 1;
        assert.equal(transition.after.turn, turns);
      }
    });
  });

  it("never lets token totals decrease or become non-finite, whatever numbers are reported", () => {
    forEveryScenario((_scenario, _orchestrator, transitions) => {
      for (const { before, after } of transitions) {
        for (const key of ["inputTokens", "outputTokens", "totalTokens"] as const) {
          const previous = before.cumulativeTokenUsage[key];
          const next = after.cumulativeTokenUsage[key];
          assert.ok(Number.isFinite(next), `${key} became ${next}`);
          assert.ok(next >= previous, `${key} went from ${previous} to ${next}`);
        }
      }
    });
  });
});
