/** A readable timeline line for `approval_requested` and `approval_decided`; undefined for others. */
export function approvalEntryText(
  type: string,
  event: Record<string, unknown>,
): string | undefined {
  const text = (key: string): string | undefined =>
    typeof event[key] === "string" ? event[key] : undefined;
  const tool = text("tool") ?? "a tool";
  if (type === "approval_requested") {
    const expires = text("expiresAt");
    return `⏸ ${tool} waits for approval (${text("approvalId") ?? "?"}; rule ${text("rule") ?? "?"})${expires === undefined ? "" : `, denied at ${expires} if nobody answers`}`;
  }
  if (type === "approval_decided") {
    const outcome = text("outcome") ?? "decided";
    const reason = text("reason");
    const mark = outcome === "approved" ? "✓" : "✗";
    return `${mark} ${tool} ${outcome.replace("_", " ")} by ${text("by") ?? "?"} at ${text("at") ?? "?"}${reason === undefined ? "" : `: ${reason}`}`;
  }
  return undefined;
}
