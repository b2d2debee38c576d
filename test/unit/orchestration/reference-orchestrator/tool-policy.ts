import type { CompiledTemplate } from "./compiled-template.ts";
import type { OrchestrationState } from "./state.ts";
import type { Step } from "../../../../src/orchestration/template-schema.ts";
import { withheldReason } from "./tool-availability.ts";
import { matchesAny } from "./tool-patterns.ts";
import type { ToolCatalogueEntry } from "../../../../src/orchestration/tool-catalogue-entry.ts";

/** Why a tool is or is not offered right now. */
export interface ToolDecision {
  tool: string;
  allowed: boolean;
  reason: string;
}

export type ToolCallCheck =
  | { ok: true; outsidePolicy?: { reason: string; expected: string[] } }
  | { ok: false; reason: string; expected: string[] };

export function activeStepOf(
  compiled: CompiledTemplate,
  state: OrchestrationState,
): Step | undefined {
  return state.activeStep === undefined ? undefined : compiled.stepsByName.get(state.activeStep);
}

/** The alternatives the active sequence expects next, or undefined when no sequence is in progress. */
export function expectedTools(
  compiled: CompiledTemplate,
  state: OrchestrationState,
): string[] | undefined {
  const sequence = activeStepOf(compiled, state)?.sequence;
  if (sequence === undefined || state.completedAt !== undefined) return undefined;
  return sequence[state.sequenceIndex];
}

function stepPolicyDecision(step: Step, tool: ToolCatalogueEntry): ToolDecision {
  const { allowed, denied } = step.availableTools ?? {};
  if (allowed !== undefined && !matchesAny(allowed, tool)) {
    return {
      tool: tool.name,
      allowed: false,
      reason: `step "${step.name}" does not list it in availableTools.allowed`,
    };
  }
  if (denied !== undefined && matchesAny(denied, tool)) {
    return {
      tool: tool.name,
      allowed: false,
      reason: `step "${step.name}" denies it in availableTools.denied`,
    };
  }
  return { tool: tool.name, allowed: true, reason: `allowed by step "${step.name}"` };
}

/** The expected alternatives that can run now (see tool-availability.ts); undefined as above. */
export function availableExpectedTools(
  compiled: CompiledTemplate,
  state: OrchestrationState,
): string[] | undefined {
  return expectedTools(compiled, state)?.filter(
    (tool) => withheldReason(compiled, state, tool) === undefined,
  );
}

/**
 * One decision per agent tool, in template order: which rule allows or withholds it. A tool that
 * cannot run now (unavailable on this worker, or failing) is withheld whatever the step allows.
 */
export function toolDecisions(
  compiled: CompiledTemplate,
  state: OrchestrationState,
): ToolDecision[] {
  const step = activeStepOf(compiled, state);
  const expected = expectedTools(compiled, state);
  return compiled.agentTools.map((tool) => {
    const withheld = withheldReason(compiled, state, tool.name);
    if (withheld !== undefined) return { tool: tool.name, allowed: false, reason: withheld };
    if (step === undefined)
      return { tool: tool.name, allowed: true, reason: "no active step: every agent tool" };
    const decision = stepPolicyDecision(step, tool);
    if (!decision.allowed || expected === undefined) return decision;
    const position = `${state.sequenceIndex + 1}/${step.sequence?.length ?? 0}`;
    return expected.includes(tool.name)
      ? {
          tool: tool.name,
          allowed: true,
          reason: `expected at position ${position} of "${step.name}"'s sequence`,
        }
      : {
          tool: tool.name,
          allowed: false,
          reason: `sequence of "${step.name}" expects ${expected.join(" or ")} at position ${position}`,
        };
  });
}

export function allowedToolNames(compiled: CompiledTemplate, state: OrchestrationState): string[] {
  return toolDecisions(compiled, state)
    .filter((decision) => decision.allowed)
    .map((decision) => decision.tool);
}

/** Whether a call may run; in guide mode out-of-policy calls run, with the reason attached. */
export function checkCall(
  compiled: CompiledTemplate,
  state: OrchestrationState,
  toolName: string,
): ToolCallCheck {
  const decision = toolDecisions(compiled, state).find((candidate) => candidate.tool === toolName);
  const expected = availableExpectedTools(compiled, state) ?? allowedToolNames(compiled, state);
  if (decision === undefined) {
    return { ok: false, reason: `"${toolName}" is not one of this agent's tools`, expected };
  }
  if (decision.allowed) return { ok: true };
  const reason = `"${toolName}" is not allowed now: ${decision.reason}`;
  // Guide mode lets out-of-policy calls run, but a tool that cannot run is refused in any mode.
  const runnable = withheldReason(compiled, state, toolName) === undefined;
  if (compiled.enforcement === "guide" && runnable)
    return { ok: true, outsidePolicy: { reason, expected } };
  return { ok: false, reason, expected };
}
