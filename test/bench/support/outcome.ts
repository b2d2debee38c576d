/** One line of the summary table `npm run bench` prints at the end (and the README repeats). */
export interface SummaryRow {
  benchmark: string;
  figure: string;
  baseline: string;
  ratio: number;
}

/** What a benchmark returns: its figures for bench/results.json and its summary lines. */
export interface BenchOutcome<Result> {
  result: Result;
  summary: SummaryRow[];
}
