import type { CompiledTemplate, Offer } from "./compiled-template.ts";
import type { OrchestrationState } from "./state.ts";
import { someToolWithheld } from "./tool-availability.ts";
import { allowedToolNames, checkCall, toolDecisions, type ToolCallCheck } from "./tool-policy.ts";

/**
 * The tools offered depend, when no tool is withheld, on two things only: the active step and the
 * position its sequence expects (or none in progress). Templates have few of both, so each offer
 * is computed once with the general rules (tool-policy.ts) and then shared: `allowedTools` and the
 * check of an offered call cost a lookup and allocate nothing, however many decisions ask.
 */
function cachedOffer(compiled: CompiledTemplate, state: OrchestrationState): Offer | undefined {
  if (someToolWithheld(compiled, state)) return undefined;
  const name = state.activeStep;
  const step = name === undefined ? undefined : compiled.compiledSteps.get(name);
  if (step === undefined) return (compiled.noStepOffer[0] ??= offerOf(compiled, state));
  const sequence = step.step.sequence;
  const inProgress =
    sequence !== undefined &&
    state.completedAt === undefined &&
    sequence[state.sequenceIndex] !== undefined;
  const slot = inProgress ? state.sequenceIndex : (sequence?.length ?? 0);
  return (step.offers[slot] ??= offerOf(compiled, state));
}

function offerOf(compiled: CompiledTemplate, state: OrchestrationState): Offer {
  const allowed = new Uint8Array(compiled.agentTools.length);
  const names: string[] = [];
  for (const decision of toolDecisions(compiled, state)) {
    if (!decision.allowed) continue;
    names.push(decision.tool);
    const id = compiled.toolIds.get(decision.tool);
    if (id !== undefined) allowed[id] = 1;
  }
  return { names: Object.freeze(names), allowed };
}

/**
 * The agent tools offered now, in template order. Typed mutable to keep the orchestrator's public
 * signature; the shared array is frozen, so a caller that changes it fails loudly instead of
 * changing later decisions.
 */
export function offeredTools(compiled: CompiledTemplate, state: OrchestrationState): string[] {
  const offer = cachedOffer(compiled, state);
  return offer === undefined ? allowedToolNames(compiled, state) : (offer.names as string[]);
}

const allowedCall: ToolCallCheck = Object.freeze({ ok: true });

/** `checkCall`, answered from the offer when the tool is offered (the common case). */
export function checkOfferedCall(
  compiled: CompiledTemplate,
  state: OrchestrationState,
  toolName: string,
): ToolCallCheck {
  const id = compiled.toolIds.get(toolName);
  if (id !== undefined && cachedOffer(compiled, state)?.allowed[id] === 1) return allowedCall;
  return checkCall(compiled, state, toolName);
}
