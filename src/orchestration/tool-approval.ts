import type { ApprovalCondition, ApprovalRule } from "./approval-schema.ts";
import type { CompiledTemplate } from "./compiled-template.ts";
import { compileLinearRegex, type CompiledRegex } from "./linear-regex.ts";
import type { OrchestrationState } from "./state.ts";
import { activeStepOf } from "./tool-policy.ts";
import { matchesPattern } from "./tool-patterns.ts";
import type { ToolCatalogueEntry } from "./tool-catalogue-entry.ts";
import { sharedAcrossSessions } from "./shared-across-sessions.ts";

/** A call that must wait for a person, and which rule says so. */
export interface ApprovalNeed {
  /** The rule in words, for the request and the Web UI: `step "Research": mcp.* when url contains "internal"`. */
  rule: string;
  /** Where the rule is in the template: `orchestration.approve[0]` or `orchestration.steps[1].approve[0]`. */
  path: string;
  /** How long to wait before the call is denied, in milliseconds; absent: no limit. */
  timeoutMs?: number;
  /** The timeout as the template wrote it ("3 days"). */
  timeout?: string;
}

const unitMs: Record<string, number> = {
  ms: 1,
  s: 1_000,
  second: 1_000,
  seconds: 1_000,
  m: 60_000,
  minute: 60_000,
  minutes: 60_000,
  h: 3_600_000,
  hour: 3_600_000,
  hours: 3_600_000,
  d: 86_400_000,
  day: 86_400_000,
  days: 86_400_000,
};

/** Milliseconds in an approval timeout ("90s", "12h", "3d", "3 days"), validated at load. */
export function parseApprovalTimeout(text: string): number {
  const match = /^(\d+)\s*([a-z]+)$/.exec(text);
  const unit = match === null ? undefined : unitMs[match[2] ?? ""];
  if (match === null || unit === undefined) {
    throw new Error(`not a timeout: "${text}" (write e.g. "30m", "12h", "3d" or "3 days")`);
  }
  return Number(match[1]) * unit;
}

/** The input's value at a dot path (`options.depth`, `urls.0`); undefined when absent. */
export function inputField(input: unknown, field: string): unknown {
  let current: unknown = input;
  for (const key of field.split(".")) {
    if (Array.isArray(current)) {
      const index = /^\d+$/.test(key) ? Number(key) : Number.NaN;
      current = Number.isNaN(index) ? undefined : (current as unknown[])[index];
    } else if (typeof current === "object" && current !== null && Object.hasOwn(current, key)) {
      current = (current as Record<string, unknown>)[key];
    } else {
      return undefined;
    }
  }
  return current;
}

// Patterns come from templates; compiled once each (RE2 is deterministic, so caching is safe).
// The worker's, not each session's (the sandbox evaluates this module once per workflow).
const compiledRegexes = sharedAcrossSessions(
  "src/orchestration/tool-approval:compiledRegexes",
  () => new Map<string, CompiledRegex>(),
);

/** The condition's `regex` compiled for RE2, or why it cannot be (the loader reports it). */
export function compileApprovalRegex(pattern: string, flags: string): CompiledRegex {
  const key = `${flags}/${pattern}`;
  let compiled = compiledRegexes.get(key);
  if (compiled === undefined) {
    compiled = compileLinearRegex(pattern, flags);
    if (compiledRegexes.size >= 256) compiledRegexes.clear();
    compiledRegexes.set(key, compiled);
  }
  return compiled;
}

/**
 * Whether the condition holds on the call's input. A field the input lacks never holds: the
 * rule is about calls that carry it (write a rule without `when` to cover every call).
 */
export function conditionHolds(condition: ApprovalCondition, input: unknown): boolean {
  const value = inputField(input, condition.field);
  if (value === undefined) return false;
  if ("equals" in condition) return value === condition.equals;
  if (condition.contains !== undefined) {
    const wanted = condition.contains;
    if (Array.isArray(value)) return value.some((item) => item === wanted);
    if (typeof value !== "string") return false;
    return condition.caseSensitive === true
      ? value.includes(wanted)
      : value.toLowerCase().includes(wanted.toLowerCase());
  }
  if (condition.regex !== undefined) {
    if (typeof value !== "string") return false;
    const compiled = compileApprovalRegex(condition.regex, condition.flags ?? "");
    if (!compiled.ok) {
      throw new Error(`approval condition regex /${condition.regex}/: ${compiled.message}`);
    }
    return compiled.regex.test(value);
  }
  return false;
}

export function describeCondition(condition: ApprovalCondition): string {
  if ("equals" in condition) return `${condition.field} equals ${JSON.stringify(condition.equals)}`;
  if (condition.contains !== undefined) {
    return `${condition.field} contains ${JSON.stringify(condition.contains)}`;
  }
  return `${condition.field} matches /${condition.regex ?? ""}/${condition.flags ?? ""}`;
}

function describeRule(rule: ApprovalRule, where: string): string {
  const when = rule.when === undefined ? "" : ` when ${describeCondition(rule.when)}`;
  return `${where}: ${rule.tool}${when}`;
}

/**
 * Whether a call the orchestrator allowed must first be approved by a person: the active step's
 * `approve` rules are asked first, then the agent's (`orchestration.approve`); the first rule
 * that names the tool (by name, wildcard or category) and whose condition holds decides, with
 * its timeout. Pure: template, state and call in, the need (or undefined) out.
 */
export function approvalFor(
  compiled: CompiledTemplate,
  state: OrchestrationState,
  tool: string,
  input: unknown,
): ApprovalNeed | undefined {
  const entry: ToolCatalogueEntry = compiled.agentTools.find((known) => known.name === tool) ?? {
    name: tool,
  };
  const step = activeStepOf(compiled, state);
  const stepIndex = step === undefined ? -1 : compiled.steps.indexOf(step);
  const lists: { rules: readonly ApprovalRule[]; path: string; where: string }[] = [
    ...(step?.approve === undefined
      ? []
      : [
          {
            rules: step.approve,
            path: `orchestration.steps[${stepIndex}].approve`,
            where: `step "${step.name}"`,
          },
        ]),
    {
      rules: compiled.template.orchestration.approve ?? [],
      path: "orchestration.approve",
      where: "agent",
    },
  ];
  for (const { rules, path, where } of lists) {
    for (const [index, rule] of rules.entries()) {
      if (!matchesPattern(rule.tool, entry)) continue;
      if (rule.when !== undefined && !conditionHolds(rule.when, input)) continue;
      return {
        rule: describeRule(rule, where),
        path: `${path}[${index}]`,
        ...(rule.timeout === undefined
          ? {}
          : { timeout: rule.timeout, timeoutMs: parseApprovalTimeout(rule.timeout) }),
      };
    }
  }
  return undefined;
}
