import { z } from "zod";
import { sharedAcrossSessions } from "./shared-across-sessions.ts";
import { boundedArray, boundedString, templateLimits as limits } from "./template-limits.ts";

/** How many approval rules one list (global or a step's) may hold. */
export const MAX_APPROVAL_RULES = 50;

/** The longest wait a rule may set: a year is longer than any person takes to answer. */
export const MAX_APPROVAL_TIMEOUT_DAYS = 365;

// Built once per worker, not per cached session (see shared-across-sessions.ts).
const schemas = sharedAcrossSessions("src/orchestration/approval-schema", () => {
  const approvalPatternSchema = boundedString(limits.name)
    .min(1, "a tool pattern cannot be empty")
    .regex(
      /^[A-Za-z0-9_.*-]+$/,
      'a tool pattern uses letters, digits, "_", ".", "-" and "*" only (e.g. "search" or "mcp.*")',
    );

  /**
   * Where in the tool's input a condition looks: dot-separated keys, numbers index lists
   * (`query`, `options.depth`, `urls.0`).
   */
  const fieldPathSchema = boundedString(limits.name)
    .min(1, 'name the input field to look at, e.g. "query" or "options.depth"')
    .regex(
      /^[A-Za-z0-9_$-]+(\.[A-Za-z0-9_$-]+)*$/,
      'write the field as dot-separated keys, e.g. "query", "options.depth" or "urls.0"',
    );

  /**
   * A condition on the call's input: the rule applies only when it holds. Exactly one test:
   * `equals` (the field's JSON value), `contains` (a substring of a text field, or an element of a
   * list field) or `regex` (RE2, linear time, matched anywhere in a text field).
   */
  const approvalConditionSchema = z
    .strictObject({
      field: fieldPathSchema,
      equals: z
        .union([z.string().max(limits.messageText), z.number(), z.boolean(), z.null()])
        .optional()
        .describe("The field's value must be exactly this."),
      contains: boundedString(limits.messageText)
        .min(1, "the text to look for cannot be empty")
        .optional()
        .describe("A text field must contain this text; a list field must contain this value."),
      regex: z
        .string()
        .min(1, "a regular expression cannot be empty")
        .max(1000, "keep regular expressions under 1000 characters")
        .optional()
        .describe("A text field must match this RE2 regular expression (no slashes)."),
      flags: z
        .string()
        .regex(/^[imsu]*$/, "flags may only combine i, m, s and u")
        .optional()
        .describe("Flags of `regex`: any of i, m, s, u."),
      caseSensitive: z.boolean().optional().describe("For `contains`: match case (default false)."),
    })
    .superRefine((condition, context) => {
      const tests = (["equals", "contains", "regex"] as const).filter((key) => key in condition);
      if (tests.length !== 1) {
        context.addIssue({
          code: "custom",
          message:
            tests.length === 0
              ? 'give one test: "equals", "contains" or "regex"'
              : `give one test, not ${tests.join(" and ")}; write two rules for two conditions`,
        });
      }
      if (condition.flags !== undefined && condition.regex === undefined) {
        context.addIssue({
          code: "custom",
          path: ["flags"],
          message: 'flags apply to "regex" only',
        });
      }
    });

  const approvalTimeoutSchema = z
    .string()
    .regex(
      /^\d+\s*(ms|s|m|h|d|seconds?|minutes?|hours?|days?)$/,
      'write a timeout like "30m", "12h", "3d" or "3 days"',
    )
    .describe(
      "How long to wait for a person before the call is denied. Absent: wait as long as it takes.",
    );

  const approvalRuleSchema = z
    .union([
      approvalPatternSchema.describe('A tool name or wildcard ("search", "mcp.*").'),
      z.strictObject({
        tool: approvalPatternSchema,
        when: approvalConditionSchema.optional(),
        timeout: approvalTimeoutSchema.optional(),
      }),
    ])
    .transform((rule) => (typeof rule === "string" ? { tool: rule } : rule));

  /** A list of approval rules: tools (or wildcards) whose calls wait for a person's approval. */
  const approvalRulesSchema = boundedArray(
    approvalRuleSchema,
    MAX_APPROVAL_RULES,
    "approval rules",
  ).describe(
    'Tool calls that wait for a person\'s approval before they run: tool names, wildcards ("mcp.*"), or {tool, when?, timeout?}.',
  );

  return {
    approvalConditionSchema,
    approvalTimeoutSchema,
    approvalRuleSchema,
    approvalRulesSchema,
  };
});

export const {
  approvalConditionSchema,
  approvalTimeoutSchema,
  approvalRuleSchema,
  approvalRulesSchema,
} = schemas;

export type ApprovalRule = z.output<typeof approvalRuleSchema>;
export type ApprovalCondition = z.output<typeof approvalConditionSchema>;
