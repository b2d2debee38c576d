import { createHash } from "node:crypto";
import type { AgentTemplate } from "../orchestration/index.ts";

/** How many hex digits of the digest a version shows: short enough to read, long enough to differ. */
const SHOWN_HEX_DIGITS = 12;

/** JSON with object keys sorted at every level, so key order and whitespace never change a version. */
function canonicalJson(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(canonicalJson).join(",")}]`;
  if (value !== null && typeof value === "object") {
    const entries = Object.entries(value as Record<string, unknown>)
      .filter(([, field]) => field !== undefined)
      .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
    return `{${entries.map(([key, field]) => `${JSON.stringify(key)}:${canonicalJson(field)}`).join(",")}}`;
  }
  return JSON.stringify(value);
}

/**
 * A template's version: `sha256:` and the first 12 hex digits of the SHA-256 of the validated
 * template as canonical JSON. Computed from what the loader produced (defaults filled in, the
 * AgentDock shape normalised), so reformatting a file or moving its keys keeps the version, and
 * any change a session could notice makes a new one.
 */
export function templateVersion(template: AgentTemplate): string {
  const digest = createHash("sha256").update(canonicalJson(template)).digest("hex");
  return `sha256:${digest.slice(0, SHOWN_HEX_DIGITS)}`;
}
