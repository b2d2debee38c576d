import { inspect } from "node:util";
import type { TestEvent } from "node:test/reporters";

/**
 * `npm test`'s console reporter: one line per top-level suite as it finishes, every failure in
 * full, and the totals (the spec reporter writes everything, worker logs included, to
 * test-results/test.log beside it). Keeps a 2,000-line run readable.
 */
export default async function* summaryReporter(
  source: AsyncIterable<TestEvent>,
): AsyncGenerator<string> {
  const failures: string[] = [];
  const started = Date.now();
  yield "npm test: full output (worker logs included) in test-results/test.log\n";
  for await (const event of source) {
    if (event.type === "test:fail") {
      const { name, nesting, details, file } = event.data;
      // A suite is listed only for its own failure (a hook), not for its failing tests.
      const subtestsOnly =
        (details.error as Error & { failureType?: string }).failureType === "subtestsFailed";
      if (!subtestsOnly) {
        // The runner wraps what the test threw; `cause` is the original error.
        const thrown: unknown = (details.error as Error & { cause?: unknown }).cause;
        const cause = inspect(thrown ?? details.error, { depth: 4 });
        failures.push(`✖ ${name}${file === undefined ? "" : ` (${file})`}\n${indent(cause)}`);
      }
      if (nesting === 0) yield `✖ ${name} (${seconds(details.duration_ms)})\n`;
    } else if (event.type === "test:pass" && event.data.nesting === 0) {
      if (event.data.details.type === "suite" || event.data.file !== undefined) {
        yield `✔ ${event.data.name} (${seconds(event.data.details.duration_ms)})\n`;
      }
    } else if (event.type === "test:summary" && event.data.file === undefined) {
      const { counts } = event.data;
      if (failures.length > 0) yield `\nFailures:\n${failures.join("\n")}\n`;
      const failed = counts.tests - counts.passed - counts.skipped - counts.todo;
      yield `\n${counts.tests} tests in ${seconds(Date.now() - started)}\n`;
      yield `${counts.passed} passed, ${failed} failed, ${counts.skipped} skipped\n`;
    }
  }
}

function seconds(ms: number): string {
  return `${(ms / 1000).toFixed(1)} s`;
}

function indent(text: string): string {
  return text
    .split("\n")
    .map((line) => `    ${line}`)
    .join("\n");
}
