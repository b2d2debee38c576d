import { z } from "zod";

/**
 * Bounds on every template field. Generous for any real agent, small enough that a template can
 * ride in a workflow's start input and every model call's prompt without nearing Temporal's
 * payload limits. The template file itself is bounded too (1 MiB, checked before it is read).
 */
export const templateLimits = {
  /** Ids, names, tool names and patterns, step names, model names. */
  name: 100,
  /** `description` fields, condition texts' descriptions. */
  description: 2_000,
  /** `personality`, the system prompt, after its lines are joined. */
  personality: 100_000,
  /** `message_contains` / `message_starts_with` values. */
  messageText: 1_000,
  tools: 200,
  steps: 100,
  conditions: 20,
  sequence: 50,
  alternatives: 20,
  resetTriggers: 20,
  /** `tags`, `chatSettings.initialMessages`, `chatSettings.chatPrompts`. */
  listEntries: 50,
  /** One chat prompt or initial message. */
  chatText: 4_000,
  /** `$schema`, URLs. */
  url: 2_000,
} as const;

/** A string of at most `max` characters, with a message naming the limit. */
export function boundedString(max: number): z.ZodString {
  return z.string().max(max, `at most ${max} characters`);
}

/** A string, or a list of lines joined with newlines, of at most `max` characters in all. */
export function boundedTextOrLines(max: number) {
  return z
    .union([boundedString(max), z.array(boundedString(max)).max(max, `at most ${max} lines`)])
    .transform((value) => (typeof value === "string" ? value : value.join("\n")))
    .pipe(z.string().max(max, `at most ${max} characters in all`));
}

/** A list of at most `max` entries, `what` naming them in the message ("steps", "tools"). */
export function boundedArray<T extends z.ZodType>(element: T, max: number, what: string) {
  return z.array(element).max(max, `at most ${max} ${what}`);
}
