import type { z } from "zod";
import type { ToolDefinition } from "./tool-definition.ts";
import { ToolInputError } from "./tool-input-error.ts";
import type { ToolInputIssue } from "./tool-input-error.ts";

/**
 * Validates a tool call's arguments against the tool's schema and returns the
 * parsed (trimmed, defaulted) input.
 *
 * @throws {ToolInputError} naming each offending field.
 */
export function parseToolInput<I>(definition: ToolDefinition<I>, input: unknown): I {
  const result = definition.inputSchema.safeParse(input);
  if (result.success) {
    return result.data;
  }
  throw new ToolInputError(definition.name, result.error.issues.map(toToolInputIssue));
}

function toToolInputIssue(issue: z.core.$ZodIssue): ToolInputIssue {
  return { path: issue.path.map(String).join("."), message: issue.message };
}
