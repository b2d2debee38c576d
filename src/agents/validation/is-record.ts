/** A JSON object (not null, not a list): what a template's objects must be before reading keys. */
export function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}
