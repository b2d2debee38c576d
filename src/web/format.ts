/** "12 s ago", "3 min ago", or the date for older times. */
export function sinceNow(iso: string, now = Date.now()): string {
  const ms = now - Date.parse(iso);
  if (!Number.isFinite(ms)) return iso;
  if (ms < 5_000) return "just now";
  if (ms < 60_000) return `${Math.round(ms / 1000)} s ago`;
  if (ms < 3_600_000) return `${Math.round(ms / 60_000)} min ago`;
  if (ms < 86_400_000) return `${Math.round(ms / 3_600_000)} h ago`;
  return new Date(iso).toLocaleString();
}

export function duration(ms: number): string {
  return ms < 1000 ? `${Math.round(ms)} ms` : `${(ms / 1000).toFixed(ms < 10_000 ? 2 : 1)} s`;
}

/** A value as the console shows tool inputs and outputs: strings as they are, the rest as JSON. */
export function shown(value: unknown): string {
  if (typeof value === "string") return value;
  try {
    // JSON.stringify answers undefined for undefined and functions.
    const json = JSON.stringify(value, null, 2) as string | undefined;
    return json ?? String(value);
  } catch {
    return String(value);
  }
}

export function newSessionId(): string {
  return crypto.randomUUID().slice(0, 8);
}
