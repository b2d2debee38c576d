/** Nearest-rank percentile (0 < p ≤ 100) of the samples; NaN when there are none. */
export function percentile(samples: readonly number[], p: number): number {
  if (samples.length === 0) return Number.NaN;
  const sorted = [...samples].sort((a, b) => a - b);
  const rank = Math.min(sorted.length, Math.max(1, Math.ceil((p / 100) * sorted.length)));
  return sorted[rank - 1] ?? Number.NaN;
}

export const median = (samples: readonly number[]): number => percentile(samples, 50);

/** Rounded for reports: `digits` decimals (whole numbers by default). */
export function round(value: number, digits = 0): number {
  const scale = 10 ** digits;
  return Math.round(value * scale) / scale;
}

/** A ratio for reports: three significant decimals, like the core benchmark's. */
export function ratio(measured: number, baseline: number): number {
  return Number((measured / baseline).toFixed(3));
}

/** "1,234" style thousands for printed summaries. */
export function thousands(value: number): string {
  return Math.round(value).toLocaleString("en-US");
}
