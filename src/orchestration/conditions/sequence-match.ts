import type { ConditionCheck } from "./condition-check.ts";
import type { ConditionContext } from "./evidence.ts";

/** The last events, position by position, are accepted by the step's sequence. */
export function sequenceMatchHolds(context: ConditionContext): boolean {
  const sequence = context.sequence;
  if (sequence === undefined || sequence.length === 0) return false;
  const tools = context.evidence.tools;
  if (tools.length < sequence.length) return false;
  const tail = tools.slice(tools.length - sequence.length);
  return sequence.every((alternatives, index) => alternatives.includes(tail[index] ?? ""));
}

export function sequenceMatchCheck(
  sequence: readonly (readonly string[])[] | undefined,
): ConditionCheck {
  if (sequence === undefined || sequence.length === 0) return () => false;
  const length = sequence.length;
  return (tools, from) => {
    const tail = tools.length - length;
    if (tail < from) return false;
    for (let index = 0; index < length; index++) {
      if (sequence[index]?.includes(tools[tail + index] ?? "") !== true) return false;
    }
    return true;
  };
}

export function describeSequenceMatch(
  sequence: readonly (readonly string[])[] | undefined,
): string {
  const shown = (sequence ?? []).map((alternatives) => alternatives.join("|")).join(" → ");
  return `sequence_match ${shown}`;
}
