import type { TurnToolCall } from "./conversation.ts";
import { truncate } from "./conversation.ts";

// Every text the auto mode writes. Deterministic: the same conversation gives the same words.

const subjectLimit = 200;

export const greetingText =
  "Hello! I am the scripted assistant of this agent. Send me a message and I will work through it with the tools I am offered.";

/** The user's request as a tool's subject: one line, at most 200 characters. */
export function subjectOf(userText: string | undefined): string {
  const subject = truncate(userText ?? "", subjectLimit);
  return subject === "" ? "the conversation so far" : subject;
}

function capitalise(word: string): string {
  return word.charAt(0).toUpperCase() + word.slice(1);
}

/** What a tool's free-text fields receive: the request and the steps it builds on. */
export function toolBodyText(
  toolName: string,
  subject: string,
  earlier: readonly string[],
): string {
  const context =
    earlier.length === 0
      ? "It is the first step of this turn."
      : `It builds on the earlier steps of this turn: ${earlier.join("; ")}.`;
  return [
    `${capitalise(toolName)} of the request "${subject}".`,
    context,
    "The scripted model writes this text deterministically from the conversation, so the same conversation always produces the same step.",
  ].join(" ");
}

/**
 * The closing answer: the request, what the user must know about this turn's limits (a step
 * skipped because a tool cannot run), then one line per tool result of the turn.
 */
export function answerText(
  userText: string | undefined,
  calls: readonly TurnToolCall[],
  offered: readonly string[],
  notes: readonly string[] = [],
): string {
  const request =
    notes.length === 0
      ? `You asked: "${subjectOf(userText)}"`
      : [
          `You asked: "${subjectOf(userText)}"`,
          ...notes.map(
            (note) => `Please note: ${capitalise(note)} This answer is built without it.`,
          ),
        ].join("\n\n");
  const results = calls.flatMap((call) =>
    call.result === undefined ? [] : [{ toolName: call.toolName, heading: call.result.heading }],
  );
  if (results.length === 0) {
    const tools =
      offered.length === 0
        ? "No tools were offered, so this is a direct answer."
        : `This needed none of the offered tools (${offered.join(", ")}); name one to have it run.`;
    return `${request}\n\nHere is my answer, written by the scripted model without tool calls. ${tools}`;
  }
  const noun = results.length === 1 ? "step" : "steps";
  const lines = results.map(
    (result, index) => `${index + 1}. **${result.toolName}**: ${result.heading}`,
  );
  return [
    request,
    `I worked through it in ${results.length} ${noun}:`,
    lines.join("\n"),
    "Taken together, these results are my answer; ask a follow-up to go deeper into any of them.",
  ].join("\n\n");
}
