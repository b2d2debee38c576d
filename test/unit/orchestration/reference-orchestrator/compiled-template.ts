import { compileMessageRegex } from "./conditions/message-regex.ts";
import type { AgentTemplate, Step } from "../../../../src/orchestration/template-schema.ts";
import { templateRegexes } from "../../../../src/orchestration/template-regexes.ts";
import type { ToolCatalogueEntry } from "../../../../src/orchestration/tool-catalogue-entry.ts";

/** Failures in a row of a sequence's next tool before the sequence is released (spec'd in README). */
export const DEFAULT_RELEASE_AFTER_FAILURES = 2;

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
}

export function compileTemplate(
  template: AgentTemplate,
  catalogue: readonly ToolCatalogueEntry[] = [],
): CompiledTemplate {
  const steps = template.orchestration.steps;
  // Compiled here, once, rather than on the first message that reaches the condition.
  for (const { condition } of templateRegexes(template)) compileMessageRegex(condition);
  const stepsByName = new Map(steps.map((step) => [step.name, step]));
  const agentTools = template.tools.map(
    (name) => catalogue.find((entry) => entry.name === name) ?? { name },
  );
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
  };
}

/** The step's sequence length, 0 when it has none. */
export function sequenceLength(step: Step | undefined): number {
  return step?.sequence?.length ?? 0;
}
