import { performance } from "node:perf_hooks";
import { RE2JS } from "re2js";
import {
  createOrchestrator,
  type AgentTemplateInput,
  type Condition,
} from "../../src/orchestration/index.ts";
import { parseAgentTemplate } from "../../src/agents/index.ts";
import { MAX_MESSAGE_CHARS } from "../../src/session/index.ts";
import { toolCatalogueEntries } from "../../src/tools/index.ts";
import { shippedAgent } from "../support/shipped-agents.ts";
import type { BenchOutcome } from "./support/outcome.ts";
import { median, ratio, round } from "./support/stats.ts";

/** The instruction budget of src/orchestration/linear-regex.ts, which templates are held to. */
const budget = 500;
const runs = 3;

/** Messages of the longest length a session accepts, each hard for some pattern below. */
function messages(): Record<string, string> {
  const length = MAX_MESSAGE_CHARS;
  const fill = (unit: string) => unit.repeat(Math.ceil(length / unit.length)).slice(0, length);
  let seed = 1;
  const random = (alphabet: string) =>
    Array.from({ length }, () => {
      seed = (seed * 1103515245 + 12345) % 2 ** 31;
      return alphabet[seed % alphabet.length] ?? "";
    }).join("");
  return {
    "a…": fill("a"),
    "abab…": fill("ab"),
    "random a/b": random("ab"),
    "random letters and spaces": random("abcdefghij "),
    "compare and …": fill("compare and "),
  };
}

/** The largest n (up to 1,000, RE2's count limit) for which `shape(n)` fits in `instructions`. */
function largestFitting(shape: (n: number) => string, instructions: number): string {
  const size = (n: number) => RE2JS.compile(shape(n)).matcher("").programSize();
  let low = 1;
  let high = 1000;
  while (low < high) {
    const mid = Math.ceil((low + high) / 2);
    if (size(mid) <= instructions) low = mid;
    else high = mid - 1;
  }
  return shape(low);
}

interface Candidate {
  name: string;
  /** One pattern per step, so every one is evaluated on every message. */
  patterns: string[];
}

function candidates(): Candidate[] {
  const fill = (shape: (n: number) => string, copies = 1): Candidate => {
    const pattern = largestFitting(shape, Math.floor(budget / copies));
    return {
      name: copies === 1 ? pattern : `${copies} × ${pattern}`,
      patterns: Array.from({ length: copies }, () => pattern),
    };
  };
  const issue = (pattern: string): Candidate => ({
    name: `issue: ${pattern}`,
    patterns: [pattern],
  });
  return [
    issue("(.*)(.*)(.*)x"),
    issue("^(\\w{1,10}){1,10}!"),
    issue("a.*(b.*)c"),
    { name: "old heuristic's example: (a+)+$", patterns: ["(a+)+$"] },
    fill((n) => `\\w*a\\w{${n}}\\d`),
    fill((n) => `(?:\\w|\\s)*a(?:\\w|\\s){${n}}\\d`),
    fill((n) => `(?:\\w|\\s)*a(?:\\w|\\s){${n}}\\d`, 4),
    fill((n) => `.*a.{${n}}\\d`, 12),
    fill((n) => `\\p{L}{${n}}\\d`),
    fill((n) => `[\\p{L}\\p{N}]{${n}}\\P{L}`),
    fill((n) => `(?:a|ab|b){${n}}c`),
  ];
}

function agent(conditions: Condition[]): AgentTemplateInput {
  return {
    id: "regex-bench",
    name: "Regex bench",
    tools: ["think"],
    orchestration: {
      defaultStep: "Chat",
      steps: [
        { name: "Chat" },
        ...conditions.map((condition, n) => ({ name: `Step${n}`, conditions: [condition] })),
      ],
    },
  };
}

const uses = new Map<string, number>();

/**
 * The template with each message_regex pattern made unique by empty groups `(?:)`, which compile
 * to nothing: sessions share a compiled pattern, and RE2 builds its DFA lazily and keeps it, so
 * a second decision with a pattern can be much faster than the first. The first is the bound.
 */
function coldPatterns(input: AgentTemplateInput): AgentTemplateInput {
  const fresh = <C>(condition: C): C => {
    const regex = condition as { type?: string; value?: string };
    if (regex.type !== "message_regex" || regex.value === undefined) return condition;
    const use = (uses.get(regex.value) ?? 0) + 1;
    uses.set(regex.value, use);
    return { ...condition, value: "(?:)".repeat(use) + regex.value };
  };
  const steps = input.orchestration?.steps?.map((step) => ({
    ...step,
    conditions: step.conditions?.map(fresh),
    resetSequenceOn: step.resetSequenceOn?.map(fresh),
  }));
  return { ...input, orchestration: { ...input.orchestration, steps } };
}

/** Median and slowest milliseconds of one user-message decision on `message`, each cold. */
function decide(input: AgentTemplateInput, message: string): { medianMs: number; maxMs: number } {
  const times: number[] = [];
  for (let run = 0; run < runs; run++) {
    const orchestrator = createOrchestrator(
      parseAgentTemplate(coldPatterns(input), { tools: toolCatalogueEntries }),
    );
    const initial = orchestrator.initialState();
    const started = performance.now();
    orchestrator.onUserMessage(initial, message);
    times.push(performance.now() - started);
  }
  return { medianMs: median(times), maxMs: Math.max(...times) };
}

export interface RegexCaseResult {
  name: string;
  patterns: number;
  /** The slowest message for this case, and its decision times (first decision per pattern). */
  worstMessage: string;
  medianMs: number;
  maxMs: number;
}

export interface RegexBenchResult {
  messageChars: number;
  instructionBudget: number;
  worstCase: string;
  worstDecisionMs: number;
  issuePatternsWorstMs: number;
  shippedCognitiveReasonerWorstMs: number;
  baselineMessageContainsMs: number;
  ratioToBaseline: number;
  cases: RegexCaseResult[];
}

export function runRegexBenchmark(): BenchOutcome<RegexBenchResult> {
  const texts = messages();
  const worstOf = (input: AgentTemplateInput) => {
    let worst = { message: "", medianMs: -1, maxMs: -1 };
    for (const [message, text] of Object.entries(texts)) {
      const timing = decide(input, text);
      if (timing.maxMs > worst.maxMs) worst = { message, ...timing };
    }
    return worst;
  };

  const contains = agent([{ type: "message_contains", value: "zzz" }]);
  worstOf(contains); // warm-up: the first decisions of the run also pay for compiling the code
  const baseline = worstOf(contains);
  const cases: RegexCaseResult[] = candidates().map(({ name, patterns }) => {
    const worst = worstOf(agent(patterns.map((value) => ({ type: "message_regex", value }))));
    console.log(`  ${name}: ${round(worst.maxMs, 1)} ms (${worst.message})`);
    return {
      name,
      patterns: patterns.length,
      worstMessage: worst.message,
      medianMs: round(worst.medianMs, 2),
      maxMs: round(worst.maxMs, 2),
    };
  });
  const shipped = worstOf(shippedAgent("cognitive-reasoner"));
  const slowest = cases.reduce((a, b) => (b.maxMs > a.maxMs ? b : a));
  const issueWorst = Math.max(
    ...cases.filter((c) => c.name.startsWith("issue:")).map((c) => c.maxMs),
  );
  const result: RegexBenchResult = {
    messageChars: MAX_MESSAGE_CHARS,
    instructionBudget: budget,
    worstCase: slowest.name,
    worstDecisionMs: slowest.maxMs,
    issuePatternsWorstMs: issueWorst,
    shippedCognitiveReasonerWorstMs: round(shipped.maxMs, 2),
    baselineMessageContainsMs: round(baseline.maxMs, 3),
    ratioToBaseline: ratio(slowest.maxMs, baseline.maxMs),
    cases,
  };
  const chars = MAX_MESSAGE_CHARS.toLocaleString("en-US");
  return {
    result,
    summary: [
      {
        benchmark: "regex",
        figure: `worst message_regex decision on a ${chars}-character message: ${result.worstDecisionMs} ms (${slowest.name}, ${budget}-instruction budget)`,
        baseline: `${result.baselineMessageContainsMs} ms (message_contains, same message)`,
        ratio: result.ratioToBaseline,
      },
      {
        benchmark: "regex",
        figure: `the issue's three patterns: at most ${issueWorst} ms; shipped cognitive-reasoner: ${result.shippedCognitiveReasonerWorstMs} ms`,
        baseline: `${result.baselineMessageContainsMs} ms (message_contains, same message)`,
        ratio: ratio(Math.max(issueWorst, shipped.maxMs), baseline.maxMs),
      },
    ],
  };
}
