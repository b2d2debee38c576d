import { z } from "zod";
import { sharedAcrossSessions } from "./shared-across-sessions.ts";
import { boundedString, templateLimits } from "./template-limits.ts";

// Built once per worker, not per cached session (see shared-across-sessions.ts).
const schemas = sharedAcrossSessions("src/orchestration/condition-schema", () => {
  /** Tool names are plain identifiers; patterns (with `*`) are only valid in tool policies. */
  const toolNameSchema = boundedString(templateLimits.name)
    .min(1, "a tool name cannot be empty")
    .regex(/^[A-Za-z0-9_.-]+$/, "a tool name uses letters, digits, '_', '.' or '-' only");

  const description = boundedString(templateLimits.description)
    .optional()
    .describe("Free text explaining the condition; shown in events.");

  const caseSensitive = z
    .boolean()
    .optional()
    .describe("Match letter case exactly (default false).");

  const windowSize = z.int().min(1, "window counts tool events and must be at least 1");

  const toolUsedConditionSchema = z.strictObject({
    type: z.literal("tool_used"),
    value: toolNameSchema.describe("The tool that must have been used."),
    window: windowSize.optional().describe("Only the last N tool events count."),
    description,
  });

  const sequenceMatchConditionSchema = z.strictObject({
    type: z.literal("sequence_match"),
    description,
  });

  const notRecentlyUsedConditionSchema = z.strictObject({
    type: z.literal("not_recently_used"),
    value: toolNameSchema.describe("The tool that must not appear in the window."),
    window: windowSize.describe("How many of the latest tool events to look at."),
    description,
  });

  const messageText = boundedString(templateLimits.messageText).min(
    1,
    "the text to look for cannot be empty",
  );

  const messageContainsConditionSchema = z.strictObject({
    type: z.literal("message_contains"),
    value: messageText,
    caseSensitive,
    description,
  });

  const messageStartsWithConditionSchema = z.strictObject({
    type: z.literal("message_starts_with"),
    value: messageText,
    caseSensitive,
    description,
  });

  const messageRegexConditionSchema = z.strictObject({
    type: z.literal("message_regex"),
    value: z
      .string()
      .min(1, "a regular expression cannot be empty")
      .max(1000, "keep regular expressions under 1000 characters")
      .describe(
        "A regular expression without slashes, matched by RE2 (linear time): JavaScript syntax without lookaround or backreferences.",
      ),
    flags: z
      .string()
      .regex(/^[imsu]*$/, "flags may only combine i, m, s and u (g and y make matching stateful)")
      .optional()
      .describe("Regular expression flags: any of i, m, s, u (u changes nothing on RE2)."),
    description,
  });

  const conditionSchema = z.discriminatedUnion("type", [
    toolUsedConditionSchema,
    sequenceMatchConditionSchema,
    notRecentlyUsedConditionSchema,
    messageContainsConditionSchema,
    messageStartsWithConditionSchema,
    messageRegexConditionSchema,
  ]);

  return {
    toolNameSchema,
    toolUsedConditionSchema,
    sequenceMatchConditionSchema,
    notRecentlyUsedConditionSchema,
    messageContainsConditionSchema,
    messageStartsWithConditionSchema,
    messageRegexConditionSchema,
    conditionSchema,
  };
});

export const {
  toolNameSchema,
  toolUsedConditionSchema,
  sequenceMatchConditionSchema,
  notRecentlyUsedConditionSchema,
  messageContainsConditionSchema,
  messageStartsWithConditionSchema,
  messageRegexConditionSchema,
  conditionSchema,
} = schemas;

export type Condition = z.infer<typeof conditionSchema>;
export type ConditionType = Condition["type"];
export type ConditionOf<T extends ConditionType> = Extract<Condition, { type: T }>;

export const conditionTypes = [
  "tool_used",
  "sequence_match",
  "not_recently_used",
  "message_contains",
  "message_starts_with",
  "message_regex",
] as const satisfies readonly ConditionType[];

export const conditionTypeSchema = sharedAcrossSessions(
  "src/orchestration/condition-schema:types",
  () => z.enum(conditionTypes),
);

/** Conditions that look at the latest user message rather than at tool events. */
export function isMessageCondition(type: ConditionType): boolean {
  return type.startsWith("message_");
}
