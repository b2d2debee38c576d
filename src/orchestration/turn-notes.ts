import type { OrchestrationEvent } from "./events.ts";

/**
 * Marks a line of a model call's instructions the user must hear about: a step this turn could
 * not run because a tool cannot run. Real models read it as an instruction; the scripted model
 * repeats such lines in its answer, so offline answers say what is missing and how to fix it.
 */
export const TURN_NOTE_PREFIX = "Note for the user: ";

/** The note an orchestration event gives the user, if any (without the prefix). */
export function turnNote(event: OrchestrationEvent): string | undefined {
  switch (event.type) {
    case "step_skipped":
      return `${event.tool} is ${event.reason}, so ${event.step} was not entered.`;
    case "sequence_released":
      return event.cause === "failed"
        ? `${event.step} stopped because ${event.tool} failed ${event.failures} times in a row (last error: ${event.error}).`
        : `${event.step} stopped because ${event.tool} is ${event.error}.`;
    default:
      return undefined;
  }
}
