import type { ToolDecision } from "../src/orchestration/index.ts";
import type { SessionView } from "../src/session/session-types.ts";
import { markdownLine, markdownQuote } from "./markdown-text.ts";

export interface CurrentDetailsInput {
  view: SessionView;
  /** The active step's sequence (each position its alternatives), if it has one. */
  sequence: readonly (readonly string[])[] | undefined;
  decisions: readonly ToolDecision[];
  /** What the turn in progress is doing ("model call 3 in EvaluationMode"), while it runs. */
  now: string | undefined;
}

function statusLine(view: SessionView): string {
  const where = `turn ${view.turn} · run ${view.run}`;
  switch (view.status) {
    case "running":
      return `**running** (a turn is in progress) · ${where}`;
    case "awaiting_approval": {
      const waiting = view.awaitingApproval;
      const what =
        waiting === undefined
          ? "a tool call"
          : `tool ${markdownLine(waiting.tool)} with input ${markdownLine(compactJson(waiting.input))}`;
      return `**awaiting approval**: ${what} · ${where}`;
    }
    case "idle":
      return `idle (waiting for a message) · ${where}`;
    case "failed":
      return `**failed** (the last turn ended with an error; the next message clears it) · ${where}`;
    case "ended":
      return `ended (${markdownLine(view.endReason ?? "ended")}) · ${where}`;
    default: {
      const unreachable: never = view.status;
      return String(unreachable);
    }
  }
}

/** "step 2 of 3", never "2/3": the UI's markdown turns a bare 2/3 into a fraction. */
function sequenceLines(view: SessionView, sequence: readonly (readonly string[])[]): string[] {
  const complete = view.sequenceIndex >= sequence.length;
  const position = complete
    ? `complete (all ${sequence.length} done)`
    : `step ${view.sequenceIndex + 1} of ${sequence.length}`;
  const lines = [`- **Sequence:** ${position}`];
  sequence.forEach((alternatives, index) => {
    const name = alternatives.map((tool) => markdownLine(tool)).join(" or ");
    const item =
      index < view.sequenceIndex
        ? `~~${name}~~ (done)`
        : index === view.sequenceIndex
          ? `**${name}** (next)`
          : name;
    // Four spaces: a list nested in the item above, numbered by the UI's renderer.
    lines.push(`    ${index + 1}. ${item}`);
  });
  return lines;
}

function toolLines(decisions: readonly ToolDecision[]): string[] {
  const offered = decisions.filter((decision) => decision.allowed);
  const withheld = decisions.filter((decision) => !decision.allowed);
  const item = (decision: ToolDecision): string =>
    `- **${markdownLine(decision.tool)}**: ${markdownLine(decision.reason)}`;
  const lines: string[] = [];
  // Lists, not a table: a table of reasons is wider than the UI's panel and gets cut off.
  lines.push("", `**Offered now (${offered.length}):**`, "");
  lines.push(...(offered.length === 0 ? ["- none"] : offered.map(item)));
  if (withheld.length > 0) {
    lines.push("", `**Not offered (${withheld.length}):**`, "", ...withheld.map(item));
  }
  return lines;
}

/**
 * The session as the Web UI's "Current details" panel shows it, in markdown the UI renders as
 * written: one fact per list item, the sequence position in words, the tools as lists, and the
 * last failed turn with its error.
 */
export function renderCurrentDetails(input: CurrentDetailsInput): string {
  const { view, sequence, decisions, now } = input;
  const usage = view.cumulativeTokenUsage;
  const lines = [
    `**${markdownLine(view.agentId)}** · session ${markdownLine(view.sessionId)}`,
    "",
    `- **Status:** ${statusLine(view)}`,
  ];
  const inTurn = view.status === "running" || view.status === "awaiting_approval";
  if (inTurn && now !== undefined) {
    lines.push(`- **Now:** ${markdownLine(now)}`);
  }
  const waiting = view.awaitingApproval;
  if (waiting !== undefined) lines.push(...approvalLines(waiting));
  const queued = inTurn ? view.pendingMessages - 1 : view.pendingMessages;
  if (queued > 0) lines.push(`- **Queued:** ${queued} more message${queued === 1 ? "" : "s"}`);
  lines.push(
    `- **Active step:** ${view.activeStep === null ? "none (every agent tool allowed)" : markdownLine(view.activeStep)}`,
  );
  if (sequence !== undefined && sequence.length > 0) lines.push(...sequenceLines(view, sequence));
  if (view.lastStep !== undefined) {
    lines.push(`- **Last step entered:** ${markdownLine(view.lastStep)}`);
  }
  lines.push(
    `- **Tokens:** ${usage.inputTokens} in · ${usage.outputTokens} out · ${usage.totalTokens} total`,
  );
  lines.push(...toolLines(decisions));
  const failure = view.lastFailure;
  if (failure !== undefined) {
    lines.push(
      "",
      `**Last failed turn:** turn ${failure.turn}, ${markdownLine(readableTime(failure.at))}`,
      "",
      markdownQuote(failure.error),
    );
  }
  // The UI sizes the panel to the rendered body without its last margins, so the last ~30 px
  // are hidden: an empty last paragraph is what gets cut, never a line of the details.
  lines.push("", "&#160;");
  return lines.join("\n");
}

/** The input as one short line of JSON: the details panel is narrow. */
function compactJson(value: unknown): string {
  // JSON.stringify gives undefined for undefined input, whatever its declared type says.
  const text = value === undefined ? "undefined" : JSON.stringify(value);
  return text.length > 200 ? `${text.slice(0, 199)}…` : text;
}

function approvalLines(waiting: NonNullable<SessionView["awaitingApproval"]>): string[] {
  return [
    `- **Approval id:** ${markdownLine(waiting.approvalId)} (rule ${markdownLine(waiting.rule)})`,
    `- **Requested:** ${markdownLine(readableTime(waiting.requestedAt))}${waiting.expiresAt === undefined ? " · no time limit" : ` · denied at ${markdownLine(readableTime(waiting.expiresAt))} if nobody answers`}`,
    `- **Answer with:** ${markdownLine(`agentdock-temporal approve (or deny) <session> ${waiting.approvalId}, the console, or POST /api/sessions/<session>/approvals/${waiting.approvalId}`)}`,
  ];
}

/** "2026-11-23 12:52:19 UTC" from an ISO time. */
function readableTime(iso: string): string {
  const match = /^(\d{4}-\d{2}-\d{2})T(\d{2}:\d{2}:\d{2})/.exec(iso);
  return match === null ? iso : `${match[1]} ${match[2]} UTC`;
}
