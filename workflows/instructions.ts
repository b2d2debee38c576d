import {
  TURN_NOTE_PREFIX,
  type AgentTemplate,
  type OrchestrationState,
} from "../src/orchestration/index.ts";
import { activeStepOf } from "./active-step.ts";

/**
 * The system prompt for one model call: the persona, the orchestration guide, and where the
 * session stands now, so a real model understands why only some tools are offered.
 */
export function instructionsFor(
  template: AgentTemplate,
  state: OrchestrationState,
  allowedTools: string[],
  summary?: string,
  notes: readonly string[] = [],
): string {
  const parts = [template.personality];
  if (summary !== undefined) {
    parts.push(
      `Summary of the earlier conversation (older messages are not repeated):\n${summary}`,
    );
  }
  const { orchestration } = template;
  if (orchestration.description !== undefined)
    parts.push(`Orchestration: ${orchestration.description}`);
  const step = activeStepOf(template, state);
  if (step !== undefined) {
    parts.push(
      `Active step: ${step.name}${step.description === undefined ? "" : ` — ${step.description}`}`,
    );
    if (step.sequence !== undefined) {
      const sequence = step.sequence.map((alternatives) => alternatives.join(" or ")).join(" → ");
      const done = state.completedAt !== undefined;
      parts.push(
        done
          ? `This step's tool sequence (${sequence}) is complete: answer the user from the tool results.`
          : `This step runs the tools ${sequence} in order; next: ${step.sequence[state.sequenceIndex]?.join(" or ") ?? "none"} (position ${state.sequenceIndex + 1} of ${step.sequence.length}).`,
      );
    }
  }
  parts.push(
    allowedTools.length > 0
      ? `Tools available now: ${allowedTools.join(", ")}. Other tools are refused.`
      : "No tool is available now: answer directly.",
  );
  const unavailable = Object.entries(state.unavailableTools ?? {});
  if (unavailable.length > 0) {
    parts.push(
      `Tools this server cannot run: ${unavailable.map(([tool, reason]) => `${tool} (${reason})`).join("; ")}.`,
    );
  }
  if (notes.length > 0) {
    parts.push(
      [
        "Tell the user about these limits, then answer as well as you can without them:",
        ...notes.map((note) => `${TURN_NOTE_PREFIX}${note}`),
      ].join("\n"),
    );
  }
  return parts.filter((part) => part.trim().length > 0).join("\n\n");
}
