const unitMs = { ms: 1, s: 1_000, m: 60_000, h: 3_600_000, d: 86_400_000 } as const;

/** Milliseconds in a duration written like "90s", "30m", "24h" or "7d" (validated at load). */
export function parseDuration(text: string): number {
  const match = /^(\d+)(ms|s|m|h|d)$/.exec(text);
  if (!match) throw new Error(`not a duration: "${text}" (write e.g. "90s", "30m", "24h", "7d")`);
  return Number(match[1]) * unitMs[match[2] as keyof typeof unitMs];
}
