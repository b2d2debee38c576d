import assert from "node:assert/strict";
import { describe, it } from "node:test";
import {
  conditionTypes,
  createOrchestrator,
  matchesPattern,
  type AgentTemplate,
  type OrchestrationState,
  type Orchestrator,
} from "../../../src/orchestration/index.ts";
import { parseAgentTemplate } from "../../../src/agents/index.ts";
import { toolCatalogue, toolCatalogueEntries } from "../../../src/tools/index.ts";
import { twentyStepTemplate } from "../../bench/core-template.ts";
import {
  createOrchestrator as createReferenceOrchestrator,
  type Orchestrator as ReferenceOrchestrator,
} from "./reference-orchestrator/orchestrator.ts";

// Differential test: the compiled orchestrator (lookup tables, cached offers, no allocation on the
// common path) against the reference orchestrator kept in ./reference-orchestrator (the logic as
// it was before it was compiled). Random valid templates from every feature of the schema, random
// event streams; every decision, state, offer and refusal must be identical. Seeded: a failure
// names the seed and case that reproduce it.

const SEED = 0x14c0de;
const CASES = 2500;
const EVENTS_PER_CASE = 60;

type Json = Record<string, unknown>;
type Random = () => number;

/** mulberry32: small, seedable, good enough to spread cases. */
function seeded(seed: number): Random {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

const catalogueNames = toolCatalogueEntries.map((entry) => entry.name);
const patterns = ["*", "*cognitive*", "*research*", "*writing*", "s*", "*e", "t*k"];
const words = ["evaluate", "Compare", "research", "debate", "ideas", "hello", "please", "  the"];
const regexes = [
  { value: "\\b(evaluat\\w*|critique)\\b", flags: "i" },
  { value: "^compare" },
  { value: "research|sources?", flags: "i" },
  { value: "\\bideas?\\b" },
  { value: "debate$", flags: "im" },
];

function pick<T>(random: Random, items: readonly T[]): T {
  const item = items[Math.floor(random() * items.length)];
  if (item === undefined) throw new Error("pick from an empty list");
  return item;
}

function some<T>(random: Random, items: readonly T[], max: number, min = 0): T[] {
  const count = min + Math.floor(random() * (max - min + 1));
  return Array.from({ length: count }, () => pick(random, items));
}

function chance(random: Random, p: number): boolean {
  return random() < p;
}

function condition(random: Random, tools: string[], hasSequence: boolean): Json {
  const type = pick(
    random,
    conditionTypes.filter((t) => hasSequence || t !== "sequence_match"),
  );
  switch (type) {
    case "tool_used":
      return {
        type,
        value: pick(random, tools),
        ...(chance(random, 0.6) ? { window: 1 + Math.floor(random() * 4) } : {}),
      };
    case "not_recently_used":
      return { type, value: pick(random, tools), window: 1 + Math.floor(random() * 4) };
    case "message_contains":
    case "message_starts_with":
      return {
        type,
        value: pick(random, words).trim(),
        ...(chance(random, 0.4) ? { caseSensitive: chance(random, 0.5) } : {}),
      };
    case "message_regex":
      return { type, ...pick(random, regexes) };
    case "sequence_match":
      return { type };
  }
}

function permits(policy: { allowed?: string[]; denied?: string[] }, tool: string): boolean {
  const entry = toolCatalogueEntries.find((candidate) => candidate.name === tool) ?? { name: tool };
  const allowed =
    policy.allowed === undefined || policy.allowed.some((p) => matchesPattern(p, entry));
  return allowed && !(policy.denied ?? []).some((p) => matchesPattern(p, entry));
}

function step(random: Random, index: number, names: string[], tools: string[]): Json {
  const policy = chance(random, 0.7)
    ? {
        ...(chance(random, 0.8) ? { allowed: some(random, [...tools, ...patterns], 3) } : {}),
        ...(chance(random, 0.4) ? { denied: some(random, [...tools, ...patterns], 2) } : {}),
      }
    : undefined;
  const permitted = tools.filter((tool) => permits(policy ?? {}, tool));
  const sequence =
    permitted.length > 0 && chance(random, 0.7)
      ? some(random, [0, 1], 3, 1).map(() =>
          chance(random, 0.6)
            ? pick(random, permitted)
            : [...new Set(some(random, permitted, 3, 1))],
        )
      : undefined;
  const conditions = some(random, [0], 2).map(() =>
    condition(random, tools, sequence !== undefined),
  );
  const ownTypes = [...new Set(conditions.map((c) => c.type as string))];
  const triggers =
    sequence === undefined
      ? []
      : some(random, [0], 2).map(() => {
          const kind = random();
          if (kind < 0.4) return "user_message";
          if (kind < 0.7 && ownTypes.length > 0) return pick(random, ownTypes);
          return condition(random, tools, true);
        });
  const onCompleteKind = random();
  const onComplete =
    onCompleteKind < 0.3
      ? undefined
      : onCompleteKind < 0.5
        ? "stay"
        : onCompleteKind < 0.75
          ? "default"
          : pick(random, names);
  return {
    name: names[index],
    ...(conditions.length > 0 ? { conditions } : {}),
    ...(policy === undefined ? {} : { availableTools: policy }),
    ...(sequence === undefined ? {} : { sequence }),
    ...(triggers.length > 0 ? { resetSequenceOn: triggers } : {}),
    ...(onComplete === undefined ? {} : { onComplete }),
    ...(chance(random, 0.3) ? { forceSequence: chance(random, 0.7) } : {}),
  };
}

function randomTemplate(random: Random): AgentTemplate | undefined {
  const tools = [...new Set(some(random, catalogueNames, 6, 1))];
  // Now and then a name every object inherits: records by name must not find the prototype's.
  const inherited = chance(random, 0.1)
    ? pick(random, ["constructor", "__proto__", "toString"])
    : "";
  const names = Array.from({ length: 1 + Math.floor(random() * 6) }, (_, i) =>
    i === 0 && inherited !== "" ? inherited : `Step${i}`,
  );
  const steps = names.map((_, index) => step(random, index, names, tools));
  const defaultKind = random();
  const defaultIndex = Math.floor(random() * steps.length);
  const defaultStep = steps[defaultIndex];
  if (defaultKind < 0.35 && defaultStep !== undefined) defaultStep.isDefault = true;
  const hasDefault = defaultKind < 0.7;
  for (const s of steps) if (!hasDefault && s.onComplete === "default") delete s.onComplete;
  const json = {
    id: "generated",
    name: "Generated",
    tools,
    orchestration: {
      ...(defaultKind >= 0.35 && hasDefault ? { defaultStep: names[defaultIndex] } : {}),
      ...(chance(random, 0.3) ? { enforcement: pick(random, ["strict", "guide"]) } : {}),
      ...(chance(random, 0.6) ? { historyLimit: 1 + Math.floor(random() * 6) } : {}),
      ...(chance(random, 0.4) ? { releaseAfterFailures: 1 + Math.floor(random() * 3) } : {}),
      steps,
    },
  };
  try {
    return parseAgentTemplate(json, { tools: toolCatalogueEntries });
  } catch {
    return undefined;
  }
}

type Event =
  | { kind: "message"; text: string }
  | { kind: "tool"; name: string }
  | { kind: "failed"; name: string; error: string }
  | { kind: "availability"; unavailable: Record<string, string> }
  | { kind: "usage"; input: number; output: number };

function randomEvent(random: Random, tools: string[], offered: readonly string[]): Event {
  const kind = random();
  if (kind < 0.15) return { kind: "message", text: some(random, words, 4, 1).join(" ") };
  if (kind < 0.75) {
    // Mostly a compliant model (an offered tool), sometimes any tool or one the agent lacks.
    const name =
      offered.length > 0 && chance(random, 0.7)
        ? pick(random, offered)
        : chance(random, 0.9)
          ? pick(random, tools)
          : "not-an-agent-tool";
    return { kind: "tool", name };
  }
  if (kind < 0.85) return { kind: "failed", name: pick(random, tools), error: "boom\n  again" };
  if (kind < 0.95) {
    const unavailable: Record<string, string> = {};
    for (const tool of tools) if (chance(random, 0.25)) unavailable[tool] = "not configured";
    return { kind: "availability", unavailable };
  }
  return { kind: "usage", input: Math.floor(random() * 100), output: Math.floor(random() * 50) };
}

function apply(
  orchestrator: Orchestrator | ReferenceOrchestrator,
  state: OrchestrationState,
  event: Event,
): unknown {
  switch (event.kind) {
    case "message":
      return orchestrator.onUserMessage(state, event.text);
    case "tool":
      return orchestrator.onToolUsed(state, event.name);
    case "failed":
      return orchestrator.onToolFailed(state, event.name, event.error);
    case "availability":
      return orchestrator.onToolAvailability(state, event.unavailable);
    case "usage":
      return {
        state: orchestrator.onTokenUsage(state, {
          inputTokens: event.input,
          outputTokens: event.output,
        }),
        events: [],
      };
  }
}

/** Everything a caller can observe of a state: offers, per-tool decisions, checks, tool choice. */
function observe(
  orchestrator: Orchestrator | ReferenceOrchestrator,
  state: OrchestrationState,
  tools: string[],
): unknown {
  return {
    allowed: [...orchestrator.allowedTools(state)],
    decisions: orchestrator.toolDecisions(state),
    checks: [...tools, "not-an-agent-tool"].map((tool) => orchestrator.checkToolCall(state, tool)),
    choice: orchestrator.toolChoice(state),
  };
}

/**
 * The state as it is serialised (queries, continue-as-new, recorded histories): the same JSON
 * text, key order included, not only an equal object.
 */
function assertSameJson(actual: unknown, expected: unknown, at: string): void {
  assert.equal(JSON.stringify(actual), JSON.stringify(expected), `${at}: serialised state`);
}

/** States a caller kept, with their JSON when returned: later decisions must not change them. */
class KeptStates {
  readonly #kept: { state: OrchestrationState; json: string; at: string }[] = [];

  keep(state: OrchestrationState, at: string): void {
    this.#kept.push({ state, json: JSON.stringify(state), at });
  }

  assertUnchanged(now: string): void {
    for (const { state, json, at } of this.#kept)
      assert.equal(JSON.stringify(state), json, `the state returned at ${at} changed by ${now}`);
  }
}

function runCase(random: Random, template: AgentTemplate, where: string): number {
  const compiled = createOrchestrator(template, toolCatalogueEntries);
  const reference = createReferenceOrchestrator(template, toolCatalogueEntries);
  const tools = template.tools;
  let state = reference.initialState();
  let ours = compiled.initialState();
  assert.deepStrictEqual(ours, state, `${where}: initial state`);
  assertSameJson(ours, state, `${where}: initial state`);
  const kept = new KeptStates();
  kept.keep(ours, `${where}: initial state`);
  for (let index = 0; index < EVENTS_PER_CASE; index++) {
    const at = `${where}, event ${index}`;
    assert.deepStrictEqual(observe(compiled, ours, tools), observe(reference, state, tools), at);
    const event = randomEvent(random, tools, reference.allowedTools(state));
    // Sometimes the state comes back from history (a JSON copy): caches must not depend on identity.
    const input = chance(random, 0.2) ? (JSON.parse(JSON.stringify(ours)) as typeof ours) : ours;
    const before = JSON.stringify(input);
    const expected = apply(reference, state, event) as { state: OrchestrationState };
    const actual = apply(compiled, input, event) as { state: OrchestrationState };
    assert.deepStrictEqual(actual, expected, `${at}: ${JSON.stringify(event)}`);
    assert.equal(JSON.stringify(input), before, `${at}: the input state was mutated`);
    assertSameJson(actual.state, expected.state, at);
    kept.keep(actual.state, at);
    state = expected.state;
    ours = actual.state;
  }
  kept.assertUnchanged(`the end of ${where}`);
  return EVENTS_PER_CASE;
}

describe("compiled orchestrator", () => {
  it("decides exactly as the reference orchestrator on thousands of random templates and event streams", () => {
    const random = seeded(SEED);
    let templates = 0;
    let events = 0;
    for (let attempt = 0; templates < CASES; attempt++) {
      assert.ok(attempt < CASES * 20, "the generator makes too few valid templates");
      const template = randomTemplate(random);
      if (template === undefined) continue;
      templates++;
      events += runCase(random, template, `seed ${SEED}, case ${attempt}`);
    }
    assert.equal(events, CASES * EVENTS_PER_CASE);
  });

  it("decides exactly as the reference orchestrator over 20,000 decisions of the core benchmark's 20-step loop", () => {
    const template = parseAgentTemplate(twentyStepTemplate(), { tools: toolCatalogueEntries });
    const compiled = createOrchestrator(template, toolCatalogueEntries);
    const reference = createReferenceOrchestrator(template, toolCatalogueEntries);
    const stream = toolCatalogue.map((tool) => tool.name);
    let state = reference.initialState();
    let ours = compiled.initialState();
    const kept = new KeptStates();
    for (let decision = 0; decision < 20_000; decision++) {
      // A caller may hold any returned state: every 100th is kept and checked at the end.
      if (decision % 100 === 0) kept.keep(ours, `decision ${decision}`);
      if (decision % 25 === 0) {
        const text = `please mode${decision % 19} topic${decision % 19}`;
        const expected = reference.onUserMessage(state, text);
        const actual = compiled.onUserMessage(ours, text);
        assert.deepStrictEqual(actual, expected, `message before decision ${decision}`);
        assertSameJson(actual.state, expected.state, `message before decision ${decision}`);
        ({ state } = expected);
        ours = actual.state;
      }
      const allowed = reference.allowedTools(state);
      assert.deepStrictEqual([...compiled.allowedTools(ours)], allowed, `offer at ${decision}`);
      const name =
        allowed[decision % Math.max(1, allowed.length)] ??
        stream[decision % stream.length] ??
        "think";
      const expected = reference.onToolUsed(state, name);
      const actual = compiled.onToolUsed(ours, name);
      assert.deepStrictEqual(actual, expected, `decision ${decision}: ${name}`);
      assertSameJson(actual.state, expected.state, `decision ${decision}: ${name}`);
      ({ state } = expected);
      ours = actual.state;
    }
    kept.assertUnchanged("decision 20,000");
  });
});
