import type { Condition } from "../../orchestration/condition-schema.ts";
import type { AgentTemplate, Step } from "../../orchestration/template-schema.ts";
import { didYouMean, type PathSegment } from "./template-paths.ts";
import type { ToolCatalogueEntry } from "../../orchestration/tool-catalogue-entry.ts";
import { checkApprovalRules } from "./approval-checks.ts";
import { checkRegexes } from "./regex-checks.ts";
import {
  catalogueEntry,
  checkPolicyNames,
  checkSequence,
  expandAgentTools,
  unknownToolMessage,
  warnMissingSequenceTools,
} from "./tool-name-checks.ts";

export interface CheckIssue {
  path: PathSegment[];
  message: string;
}

export interface CheckResult {
  errors: CheckIssue[];
  warnings: CheckIssue[];
  /** `tools` with patterns expanded against the catalogue, in template order, no duplicates. */
  tools: string[];
  /** AgentDock tools the template names that the catalogue lacks: it loads, they never run. */
  missingTools: string[];
}

const ON_COMPLETE_KEYWORDS = new Set(["stay", "default"]);

/** The load-time checks of spec §1 that a schema cannot express. */
export function checkTemplate(
  template: AgentTemplate,
  catalogue: readonly ToolCatalogueEntry[] | undefined,
): CheckResult {
  const errors: CheckIssue[] = [];
  const warnings: CheckIssue[] = [];
  const missingTools: string[] = [];
  const tools = expandAgentTools(template.tools, catalogue, errors, missingTools);
  const toolEntries = tools.map(
    (name) => (catalogue === undefined ? undefined : catalogueEntry(catalogue, name)) ?? { name },
  );
  const steps = template.orchestration.steps;
  const stepNames = steps.map((step) => step.name);

  checkStepNames(steps, errors);
  const defaultStep = checkDefaults(template, stepNames, errors);

  steps.forEach((step, index) => {
    const at = (...rest: PathSegment[]): PathSegment[] => [
      "orchestration",
      "steps",
      index,
      ...rest,
    ];
    checkPolicyNames(step, tools, catalogue, at, errors, warnings, toolEntries);
    checkSequence(step, tools, catalogue, toolEntries, at, errors);
    (step.conditions ?? []).forEach((condition, conditionIndex) => {
      checkCondition(condition, step, tools, catalogue, at("conditions", conditionIndex), errors);
    });
    (step.resetSequenceOn ?? []).forEach((trigger, triggerIndex) => {
      const path = at("resetSequenceOn", triggerIndex);
      if (step.sequence === undefined) {
        errors.push({
          path,
          message: "resetSequenceOn needs a sequence on this step; add one or remove the trigger",
        });
      } else if (typeof trigger === "object") {
        checkCondition(trigger, step, tools, catalogue, path, errors);
      } else if (
        trigger !== "user_message" &&
        !(step.conditions ?? []).some((c) => c.type === trigger)
      ) {
        errors.push({
          path,
          message: `"${trigger}" resets when this step's own ${trigger} condition holds, but the step has none; add one to conditions or write a condition object here`,
        });
      }
    });
    if (step.onComplete !== undefined)
      checkOnComplete(step.onComplete, stepNames, defaultStep, at("onComplete"), errors);
  });

  checkRegexes(template, errors);
  checkApprovalRules(template, tools, catalogue, toolEntries, errors, warnings);
  warnUnreachableSteps(steps, defaultStep, warnings);
  warnMissingSequenceTools(steps, missingTools, warnings);
  return { errors, warnings, tools, missingTools };
}

function checkStepNames(steps: readonly Step[], errors: CheckIssue[]): void {
  const seen = new Map<string, number>();
  steps.forEach((step, index) => {
    const first = seen.get(step.name);
    if (first === undefined) seen.set(step.name, index);
    else {
      errors.push({
        path: ["orchestration", "steps", index, "name"],
        message: `duplicate step name "${step.name}" (also orchestration.steps[${first}]); step names must be unique`,
      });
    }
  });
}

/** The default step's name, from `defaultStep` or `isDefault` (the same concept). */
function checkDefaults(
  template: AgentTemplate,
  stepNames: readonly string[],
  errors: CheckIssue[],
): string | undefined {
  const { defaultStep, steps } = template.orchestration;
  if (defaultStep !== undefined && !stepNames.includes(defaultStep)) {
    errors.push({
      path: ["orchestration", "defaultStep"],
      message: `no step is named "${defaultStep}"${didYouMean(defaultStep, stepNames)} (steps: ${stepNames.join(", ") || "none"})`,
    });
  }
  let chosen =
    defaultStep !== undefined && stepNames.includes(defaultStep) ? defaultStep : undefined;
  steps.forEach((step, index) => {
    if (step.isDefault !== true || step.name === chosen) return;
    if (chosen === undefined && defaultStep === undefined) {
      chosen = step.name;
      return;
    }
    errors.push({
      path: ["orchestration", "steps", index, "isDefault"],
      message: `more than one default step ("${chosen ?? defaultStep ?? ""}" and "${step.name}"); keep one (defaultStep and isDefault name the same thing)`,
    });
  });
  return chosen;
}

function checkCondition(
  condition: Condition,
  step: Step,
  tools: readonly string[],
  catalogue: readonly ToolCatalogueEntry[] | undefined,
  path: PathSegment[],
  errors: CheckIssue[],
): void {
  switch (condition.type) {
    case "sequence_match":
      if (step.sequence === undefined) {
        errors.push({
          path,
          message: "sequence_match needs a sequence on this step; add one or use tool_used",
        });
      }
      return;
    case "tool_used":
    case "not_recently_used": {
      const problem = unknownToolMessage(condition.value, tools, catalogue);
      if (problem !== undefined) errors.push({ path: [...path, "value"], message: problem });
      return;
    }
    case "message_regex":
      // Compiled and budgeted with the template's other patterns in checkRegexes.
      return;
    case "message_contains":
    case "message_starts_with":
      return;
  }
}

function checkOnComplete(
  target: string,
  stepNames: readonly string[],
  defaultStep: string | undefined,
  path: PathSegment[],
  errors: CheckIssue[],
): void {
  if (target === "default" && defaultStep === undefined) {
    errors.push({
      path,
      message:
        'onComplete is "default" but the agent has no default step; set defaultStep or isDefault',
    });
  } else if (!ON_COMPLETE_KEYWORDS.has(target) && !stepNames.includes(target)) {
    errors.push({
      path,
      message: `no step is named "${target}"${didYouMean(target, stepNames)} (write "stay", "default" or a step name)`,
    });
  }
}

function warnUnreachableSteps(
  steps: readonly Step[],
  defaultStep: string | undefined,
  warnings: CheckIssue[],
): void {
  const targets = new Set(
    steps.map((step) => step.onComplete).filter((name) => name !== undefined),
  );
  steps.forEach((step, index) => {
    const reachable =
      (step.conditions ?? []).length > 0 || step.name === defaultStep || targets.has(step.name);
    if (!reachable) {
      warnings.push({
        path: ["orchestration", "steps", index],
        message: `step "${step.name}" can never become active: it has no conditions, is not the default and no onComplete names it`,
      });
    }
  });
}
