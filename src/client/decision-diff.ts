import type { AgentTemplate } from "../orchestration/index.ts";
import {
  recomputeDecisions,
  recordingMismatch,
  sameTools,
  type MessageDecision,
} from "./session-decisions.ts";
import type { SessionRecording } from "./session-recording.ts";

/** The first message whose decisions a template changes. */
export interface FirstDifference {
  turn: number;
  messageId: string;
  text: string;
  activeStep: { before: string | null; after: string | null };
  /** The model call (1-based) whose offered tools differ first; absent when all agree. */
  modelCall?: number;
  offeredTools: { before: string[]; after: string[] };
}

/** A session's decisions under its own templates against one template. */
export type DecisionComparison = {
  /** Messages compared (the ones the history holds). */
  messages: number;
  /**
   * The first message the history holds: 1, or later for a fork (its earlier messages are its
   * parent's) or a history file of a later run.
   */
  fromMessage: number;
} & (
  | { outcome: "same" }
  | { outcome: "different"; first: FirstDifference }
  /** The recording does not recompute to what it recorded: no answer is better than a wrong one. */
  | { outcome: "unreadable"; reason: string }
);

function differenceAt(
  before: MessageDecision,
  after: MessageDecision,
): FirstDifference | undefined {
  const calls = Math.max(before.modelCalls.length, after.modelCalls.length);
  let differing: number | undefined;
  for (let index = 0; index < calls; index++) {
    const left = before.modelCalls[index]?.offeredTools ?? [];
    const right = after.modelCalls[index]?.offeredTools ?? [];
    if (!sameTools(left, right)) {
      differing = index;
      break;
    }
  }
  if (before.activeStep === after.activeStep && differing === undefined) return undefined;
  const shown = differing ?? 0;
  return {
    turn: before.turn,
    messageId: before.messageId,
    text: before.text,
    activeStep: { before: before.activeStep, after: after.activeStep },
    ...(differing === undefined ? {} : { modelCall: differing + 1 }),
    offeredTools: {
      before: before.modelCalls[shown]?.offeredTools ?? [],
      after: after.modelCalls[shown]?.offeredTools ?? [],
    },
  };
}

/**
 * Replays a session's recorded inputs under `template` and under the templates it ran, and
 * returns the first message where the active step (after the message's decision) or the tools
 * offered to a model call would differ. Past that point the conversation itself would have gone
 * differently, so later messages are not compared.
 */
export function compareDecisions(
  recording: SessionRecording,
  template: AgentTemplate,
): DecisionComparison {
  const before = recomputeDecisions(recording);
  const counted = {
    messages: before.length,
    fromMessage: (recording.input.carried?.state.turn ?? 0) + 1,
  };
  const mismatch = recordingMismatch(before);
  if (mismatch !== undefined) {
    return {
      outcome: "unreadable",
      ...counted,
      reason: `recomputing message ${mismatch.turn} under the session's own template offers [${mismatch.recomputed.join(", ")}] to model call ${mismatch.call}, but the history recorded [${mismatch.recorded.join(", ")}]`,
    };
  }
  const after = recomputeDecisions(recording, { template });
  for (const [index, decision] of before.entries()) {
    const candidate = after[index];
    if (candidate === undefined) break;
    const first = differenceAt(decision, candidate);
    if (first !== undefined) return { outcome: "different", ...counted, first };
  }
  return { outcome: "same", ...counted };
}

/** `"Please evaluate the argu…"`: a message as a report quotes it, on one line. */
export function quoteMessage(text: string, limit = 40): string {
  const line = text.replace(/\s+/g, " ").trim();
  return JSON.stringify(line.length <= limit ? line : `${line.slice(0, limit - 1)}…`);
}

/** One line for a comparison, as `replay --template` prints it. */
export function describeComparison(comparison: DecisionComparison): string {
  switch (comparison.outcome) {
    case "same": {
      const { messages, fromMessage } = comparison;
      const all = `same decisions for all ${messages} message${messages === 1 ? "" : "s"}`;
      return fromMessage === 1
        ? all
        : `${all} (messages ${fromMessage} to ${fromMessage + messages - 1}: the history starts after message ${fromMessage - 1})`;
    }
    case "unreadable":
      return `cannot compare: ${comparison.reason}`;
    case "different": {
      const { first } = comparison;
      const step = (name: string | null): string => name ?? "(none)";
      const tools = (names: readonly string[]): string => `[${names.join(", ")}]`;
      return (
        `first difference at message ${first.turn} (${quoteMessage(first.text)}): ` +
        `active step ${step(first.activeStep.before)} → ${step(first.activeStep.after)}; ` +
        `offered tools ${tools(first.offeredTools.before)} → ${tools(first.offeredTools.after)}` +
        (first.modelCall === undefined || first.modelCall === 1
          ? ""
          : ` (model call ${first.modelCall})`)
      );
    }
  }
}
