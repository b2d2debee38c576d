import type { CompiledTemplate } from "./compiled-template.ts";
import type { OrchestrationState } from "./state.ts";
import type { Step } from "./template-schema.ts";
import { matchesAny } from "./tool-patterns.ts";
import { ownEntry } from "./own-entries.ts";

/**
 * Why a tool cannot be offered now, or undefined when it can. Two causes:
 * - the worker reported it unavailable (not configured, not installed): withheld until a later
 *   turn's report says otherwise;
 * - it failed `releaseAfterFailures` times in a row and its last failure is in this turn: withheld
 *   for the rest of the turn, so a model cannot loop on it. The next user message gives it one
 *   more try (the count persists, so one more failure withholds it again).
 */
export function withheldReason(
  compiled: CompiledTemplate,
  state: OrchestrationState,
  tool: string,
): string | undefined {
  const unavailable = ownEntry(state.unavailableTools, tool);
  if (unavailable !== undefined) return `unavailable on this worker: ${unavailable}`;
  const failure = ownEntry(state.toolFailures, tool);
  if (
    failure !== undefined &&
    failure.count >= compiled.releaseAfterFailures &&
    failure.turn === state.turn
  ) {
    return `failing: it failed ${failure.count} times in a row (last error: ${failure.error}); it gets one more try on the next message`;
  }
  return undefined;
}

/**
 * Whether some agent tool cannot run now. Almost never: then offers depend on the step alone and
 * decisions take their precomputed path (tool-offers.ts, step-candidates.ts).
 */
export function someToolWithheld(compiled: CompiledTemplate, state: OrchestrationState): boolean {
  if (state.unavailableTools === undefined && state.toolFailures === undefined) return false;
  for (const tool of compiled.agentTools)
    if (withheldReason(compiled, state, tool.name) !== undefined) return true;
  return false;
}

/** Something a step needs that cannot run now: the tool(s) and why. */
export interface Block {
  /** The tool, or the alternatives joined with " or ". */
  tool: string;
  reason: string;
  /** The sequence position (0-based) that cannot be satisfied; absent for a step without one. */
  position?: number;
}

function blockOf(
  compiled: CompiledTemplate,
  state: OrchestrationState,
  tools: readonly string[],
): Omit<Block, "position"> | undefined {
  const reasons: string[] = [];
  for (const tool of tools) {
    const reason = withheldReason(compiled, state, tool);
    if (reason === undefined) return undefined;
    reasons.push(tools.length === 1 ? reason : `${tool}: ${reason}`);
  }
  if (reasons.length === 0) return undefined;
  return { tool: tools.join(" or "), reason: reasons.join("; ") };
}

/**
 * The first position of the step's sequence, from `from` on, none of whose alternatives can run
 * now: the sequence could never complete, so such a step is not entered (or, active, released).
 */
export function sequenceBlock(
  compiled: CompiledTemplate,
  state: OrchestrationState,
  step: Step,
  from: number,
): Block | undefined {
  const sequence = step.sequence ?? [];
  for (let position = from; position < sequence.length; position++) {
    const block = blockOf(compiled, state, sequence[position] ?? []);
    if (block !== undefined) return { ...block, position };
  }
  return undefined;
}

/**
 * Why a step cannot be entered now, or undefined when it can. A step with a sequence needs every
 * position satisfiable by an available alternative. A step without one needs at least one of the
 * agent tools its policy allows to be available; a step that allows none (an "answer directly"
 * step) can always be entered.
 */
export function entryBlock(
  compiled: CompiledTemplate,
  state: OrchestrationState,
  step: Step,
): Block | undefined {
  if (step.sequence !== undefined) return sequenceBlock(compiled, state, step, 0);
  const { allowed, denied } = step.availableTools ?? {};
  const tools = compiled.agentTools
    .filter((tool) => allowed === undefined || matchesAny(allowed, tool))
    .filter((tool) => denied === undefined || !matchesAny(denied, tool))
    .map((tool) => tool.name);
  return blockOf(compiled, state, tools);
}
