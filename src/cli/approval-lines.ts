import type { ApprovalRecord } from "../session/index.ts";

/** The input as one line of JSON, cut for a terminal. */
function inputLine(input: unknown, maxChars = 160): string {
  const text = input === undefined ? "undefined" : JSON.stringify(input);
  return text.length > maxChars ? `${text.slice(0, maxChars - 1)}…` : text;
}

/** One approval as the terminal shows it: id, tool, input, and when it was asked (and decided). */
export function approvalLines(record: ApprovalRecord): string[] {
  const where = record.step === null ? "" : ` in step ${record.step}`;
  const lines = [
    `${record.approvalId}  ${record.tool} with input ${inputLine(record.input)}`,
    `  turn ${record.turn}${where}, requested ${record.requestedAt} (rule ${record.rule})`,
  ];
  const decision = record.decision;
  if (decision !== undefined) {
    const reason = decision.reason === undefined ? "" : `: ${decision.reason}`;
    lines.push(
      `  ${decision.outcome.replace("_", " ")} by ${decision.by} at ${decision.at}${reason}`,
    );
  } else if (record.expiresAt !== undefined) {
    lines.push(`  denied at ${record.expiresAt} if nobody answers`);
  }
  return lines;
}
