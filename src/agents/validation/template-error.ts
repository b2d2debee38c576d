/** One problem found in a template; `path` reads like `orchestration.steps[2].sequence[1]`. */
export interface TemplateIssue {
  path: string;
  message: string;
}

/** Thrown by `parseAgentTemplate`; `issues` lists every problem found, not just the first. */
export class TemplateError extends Error {
  override readonly name = "TemplateError";
  readonly issues: readonly TemplateIssue[];

  constructor(issues: readonly TemplateIssue[], source?: string) {
    const where = source === undefined ? "agent template" : source;
    const lines = issues.map((issue) => `  ${issue.path || "(template)"}: ${issue.message}`);
    super(`${where} is invalid:\n${lines.join("\n")}`);
    this.issues = issues;
  }
}
