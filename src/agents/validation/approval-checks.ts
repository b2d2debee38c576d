import { MAX_APPROVAL_TIMEOUT_DAYS } from "../../orchestration/approval-schema.ts";
import type { ApprovalRule } from "../../orchestration/approval-schema.ts";
import type { AgentTemplate } from "../../orchestration/template-schema.ts";
import { compileApprovalRegex, parseApprovalTimeout } from "../../orchestration/tool-approval.ts";
import type { ToolCatalogueEntry } from "../../orchestration/tool-catalogue-entry.ts";
import { isPattern, matchesAny } from "../../orchestration/tool-patterns.ts";
import { unsupportedFeature } from "./regex-features.ts";
import type { CheckIssue } from "./template-checks.ts";
import type { PathSegment } from "./template-paths.ts";
import { unknownToolMessage } from "./tool-name-checks.ts";

const DAY_MS = 86_400_000;

/** Every `approve` list of a template with where it is. */
function approvalLists(
  template: AgentTemplate,
): { rules: readonly ApprovalRule[]; path: PathSegment[] }[] {
  return [
    ...(template.orchestration.approve === undefined
      ? []
      : [{ rules: template.orchestration.approve, path: ["orchestration", "approve"] }]),
    ...template.orchestration.steps.flatMap((step, index) =>
      step.approve === undefined
        ? []
        : [{ rules: step.approve, path: ["orchestration", "steps", index, "approve"] }],
    ),
  ];
}

/**
 * The `approve` rules name this agent's tools (a wildcard that matches none is a warning: a
 * plug-in or MCP tool may bring one later), their timeouts are readable and at most a year, and
 * their regular expressions compile for RE2, the engine the workflow runs.
 */
export function checkApprovalRules(
  template: AgentTemplate,
  tools: readonly string[],
  catalogue: readonly ToolCatalogueEntry[] | undefined,
  toolEntries: readonly ToolCatalogueEntry[],
  errors: CheckIssue[],
  warnings: CheckIssue[],
): void {
  for (const { rules, path } of approvalLists(template)) {
    rules.forEach((rule, index) => {
      const at = (...rest: PathSegment[]): PathSegment[] => [...path, index, ...rest];
      const toolPath = at();
      if (isPattern(rule.tool)) {
        if (!toolEntries.some((entry) => matchesAny([rule.tool], entry))) {
          warnings.push({
            path: toolPath,
            message: `the pattern "${rule.tool}" matches none of this agent's tools, so no call waits for approval by it`,
          });
        }
      } else {
        const problem = unknownToolMessage(rule.tool, tools, catalogue);
        if (problem !== undefined) errors.push({ path: toolPath, message: problem });
      }
      if (rule.timeout !== undefined) {
        const ms = parseApprovalTimeout(rule.timeout);
        if (ms <= 0) {
          errors.push({
            path: at("timeout"),
            message: `a timeout of "${rule.timeout}" denies every call at once; give a positive duration or leave timeout out to wait without limit`,
          });
        } else if (ms > MAX_APPROVAL_TIMEOUT_DAYS * DAY_MS) {
          errors.push({
            path: at("timeout"),
            message: `"${rule.timeout}" is longer than ${MAX_APPROVAL_TIMEOUT_DAYS} days; leave timeout out to wait without limit`,
          });
        }
      }
      const regex = rule.when?.regex;
      if (regex !== undefined) {
        const compiled = compileApprovalRegex(regex, rule.when?.flags ?? "");
        if (!compiled.ok) {
          const feature =
            compiled.syntax === undefined
              ? undefined
              : unsupportedFeature(compiled.syntax.description, compiled.syntax.snippet);
          errors.push({
            path: at("when", compiled.field === "flags" ? "flags" : "regex"),
            message: feature ?? compiled.message,
          });
        }
      }
    });
  }
}
