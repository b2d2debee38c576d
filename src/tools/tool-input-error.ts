export interface ToolInputIssue {
  /** Dotted path of the offending field; empty when the input as a whole is wrong. */
  path: string;
  message: string;
}

/**
 * Input a tool rejected. The message is meant for the model, so it can fix
 * the call: `critique: "analysis" must be a non-empty string`.
 */
export class ToolInputError extends Error {
  override readonly name = "ToolInputError";
  readonly toolName: string;
  readonly issues: readonly ToolInputIssue[];

  constructor(toolName: string, issues: readonly ToolInputIssue[]) {
    super(`${toolName}: ${issues.map(formatIssue).join("; ")}`);
    this.toolName = toolName;
    this.issues = issues;
  }
}

function formatIssue(issue: ToolInputIssue): string {
  return issue.path === "" ? issue.message : `"${issue.path}" ${issue.message}`;
}
