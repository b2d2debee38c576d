import { isMessageCondition, type Condition } from "./condition-schema.ts";
import {
  compileConditionCheck,
  isMonotone,
  type ConditionCheck,
} from "./conditions/condition-check.ts";
import { describeCondition } from "./conditions/evaluate-condition.ts";
import { compileMessageRegex } from "./conditions/message-regex.ts";
import type { AgentTemplate, Step } from "./template-schema.ts";
import { templateRegexes } from "./template-regexes.ts";
import type { ToolCatalogueEntry } from "./tool-catalogue-entry.ts";

/** Failures in a row of a sequence's next tool before the sequence is released (spec'd in README). */
export const DEFAULT_RELEASE_AFTER_FAILURES = 2;

/**
 * What the model is offered in one situation — a step at one sequence position, no tool withheld
 * — computed once and shared by every decision in that situation (see tool-offers.ts).
 */
export interface Offer {
  /** The allowed agent tools in template order; frozen, as it is handed to every caller. */
  readonly names: readonly string[];
  /** By tool id (`CompiledTemplate.toolIds`): 1 when allowed. A byte set: one load per check. */
  readonly allowed: Uint8Array;
}

/** A step prepared for the decision path. */
export interface CompiledStep {
  readonly step: Step;
  /** Its conditions, compiled to checks that read the evidence in place (conditions/condition-check.ts). */
  readonly checks: readonly ConditionCheck[];
  /**
   * The checks of its monotone conditions (conditions/condition-check.ts), tried first on all the
   * evidence: one false rules the step out without reading its completion mark.
   */
  readonly monotoneChecks: readonly ConditionCheck[];
  /** Its conditions described, as `step_entered` reports them when all hold. */
  readonly described: readonly string[];
  /**
   * Offers by sequence position, filled on first use; the slot after the last position holds the
   * offer when no sequence is in progress (none, completed).
   */
  readonly offers: (Offer | undefined)[];
}

/** A template prepared for fast decisions: lookups by name, tool categories resolved. */
export interface CompiledTemplate {
  readonly template: AgentTemplate;
  readonly steps: readonly Step[];
  readonly stepsByName: ReadonlyMap<string, Step>;
  readonly agentTools: readonly ToolCatalogueEntry[];
  readonly defaultStep: Step | undefined;
  readonly historyLimit: number;
  readonly enforcement: "strict" | "guide";
  readonly releaseAfterFailures: number;
  /** Agent tool name → small integer id, the index of the offers' byte sets. */
  readonly toolIds: ReadonlyMap<string, number>;
  /** Compiled steps by name (the same step `stepsByName` resolves). */
  readonly compiledSteps: ReadonlyMap<string, CompiledStep>;
  /** The steps with conditions, in configuration order: the candidates of spec §4 rule 2. */
  readonly conditionalSteps: readonly CompiledStep[];
  /** Offer cache when no step is active: every agent tool that can run. */
  readonly noStepOffer: (Offer | undefined)[];
  /**
   * Whether every `message_regex` compiled. A template the loader did not check may carry one that
   * does not; its decisions take the general path, which fails on it exactly where it always did.
   */
  readonly regexesValid: boolean;
}

function compileStep(step: Step): CompiledStep {
  const conditions = step.conditions ?? [];
  // Message conditions first: their outcome is kept per message, so they cost a comparison, and
  // most steps are ruled out by one. The order is free: checks are pure and cannot throw.
  const ordered = [
    ...conditions.filter((condition) => isMessageCondition(condition.type)),
    ...conditions.filter((condition) => !isMessageCondition(condition.type)),
  ];
  const checks = ordered.map((condition) => compileConditionCheck(condition, step.sequence));
  return {
    step,
    checks,
    monotoneChecks: checks.filter((_, index) => isMonotone(ordered[index] as Condition)),
    described: conditions.map((condition) => describeCondition(condition, step.sequence)),
    offers: [],
  };
}

export function compileTemplate(
  template: AgentTemplate,
  catalogue: readonly ToolCatalogueEntry[] = [],
): CompiledTemplate {
  const steps = template.orchestration.steps;
  // Compiled here, once, rather than on the first message that reaches the condition.
  let regexesValid = true;
  for (const { condition } of templateRegexes(template))
    regexesValid = compileMessageRegex(condition).ok && regexesValid;
  const stepsByName = new Map(steps.map((step) => [step.name, step]));
  const agentTools = template.tools.map(
    (name) => catalogue.find((entry) => entry.name === name) ?? { name },
  );
  const toolIds = new Map<string, number>();
  agentTools.forEach(({ name }, id) => {
    if (!toolIds.has(name)) toolIds.set(name, id);
  });
  const compiled = steps.map(compileStep);
  const compiledSteps = new Map(compiled.map((entry) => [entry.step.name, entry]));
  const defaultName =
    template.orchestration.defaultStep ?? steps.find((step) => step.isDefault === true)?.name;
  return {
    template,
    steps,
    stepsByName,
    agentTools,
    defaultStep: defaultName === undefined ? undefined : stepsByName.get(defaultName),
    historyLimit: template.orchestration.historyLimit,
    enforcement: template.orchestration.enforcement,
    // Snapshots of templates written before the setting existed lack it.
    releaseAfterFailures:
      template.orchestration.releaseAfterFailures ?? DEFAULT_RELEASE_AFTER_FAILURES,
    toolIds,
    compiledSteps,
    conditionalSteps: compiled.filter((entry) => entry.checks.length > 0),
    noStepOffer: [],
    regexesValid,
  };
}

/** The step's sequence length, 0 when it has none. */
export function sequenceLength(step: Step | undefined): number {
  return step?.sequence?.length ?? 0;
}
