import { ApplicationFailure } from "@temporalio/common";

export const REDACTED = "[redacted]";

/** Environment variables whose values are secrets by name. */
const secretNamePattern = /(_API_KEY|_TOKEN|_SECRET|_PASSWORD)$/i;
/** Shorter values are too likely to occur in ordinary text to be replaced everywhere. */
const minSecretLength = 6;

/**
 * Strings shaped like credentials, whoever holds them: provider keys (`sk-…`, `sk-ant-…`),
 * bearer tokens, and long token-like values right after a key/token/secret/password word.
 */
const keyShapedPatterns: readonly RegExp[] = [
  /\bsk-[A-Za-z0-9_-]{8,}/g,
  /\b(Bearer|Basic)(\s+)[A-Za-z0-9._~+/=-]{8,}/gi,
  /\b((?:api[_-]?)?key|token|secret|password|authorization)(["']?\s*[:=]\s*["']?|\s+)[A-Za-z0-9._~+/=-]{16,}/gi,
];

/** The values of the worker's configured secrets (`*_API_KEY`, `*_TOKEN`, `*_SECRET`, `*_PASSWORD`). */
export function secretsFromEnv(env: Readonly<Record<string, string | undefined>>): string[] {
  return Object.entries(env)
    .filter(([name, value]) => secretNamePattern.test(name) && value !== undefined)
    .map(([, value]) => (value ?? "").trim());
}

export interface Redactor {
  text(text: string): string;
  /** Strings inside plain JSON-like values (failure details), redacted; other values as they are. */
  value(value: unknown): unknown;
  /** The error with every message, stack, detail and cause redacted (mutated in place). */
  error<E>(error: E): E;
}

/**
 * Replaces configured secrets (exact values) and key-shaped strings with `[redacted]`. Applied
 * where errors leave the worker's code (the activity boundary and the model's stream), so nothing
 * a provider echoes reaches history, the stream or a log line.
 */
export function createRedactor(secrets: readonly string[]): Redactor {
  const values = [...new Set(secrets.map((secret) => secret.trim()))]
    .filter((secret) => secret.length >= minSecretLength)
    // Longest first, so a secret containing another is replaced whole.
    .sort((a, b) => b.length - a.length);

  const text = (input: string): string => {
    let output = input;
    for (const secret of values) output = output.split(secret).join(REDACTED);
    output = output.replace(keyShapedPatterns[0] as RegExp, REDACTED);
    for (const pattern of keyShapedPatterns.slice(1)) {
      output = output.replace(
        pattern,
        (_match, word: string, separator: string) => `${word}${separator}${REDACTED}`,
      );
    }
    return output;
  };

  const value = (input: unknown, depth = 0): unknown => {
    if (typeof input === "string") return text(input);
    if (depth > 20 || input === null || typeof input !== "object") return input;
    if (Array.isArray(input)) return input.map((item) => value(item, depth + 1));
    if (Object.getPrototypeOf(input) !== Object.prototype) return input;
    return Object.fromEntries(
      Object.entries(input).map(([key, item]) => [key, value(item, depth + 1)]),
    );
  };

  const error = <E>(input: E): E => {
    let current: unknown = input;
    for (let depth = 0; current instanceof Error && depth < 20; depth += 1) {
      current.message = text(current.message);
      if (current.stack !== undefined) current.stack = text(current.stack);
      if (current instanceof ApplicationFailure && current.details != null) {
        Object.assign(current, { details: value(current.details) });
      }
      current = current.cause;
    }
    return input;
  };

  return { text, value: (input) => value(input), error };
}
