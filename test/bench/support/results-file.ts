import { readFileSync } from "node:fs";
import { flattenFigures } from "./figures.ts";

/** Why a results file cannot be read, naming the file and the fix. */
export class ResultsFileError extends Error {
  override name = "ResultsFileError";
}

/**
 * A results file's contents: a JSON object as `npm run bench` writes, or a ResultsFileError.
 * `requireFigures` (the default, for --compare) also refuses an object without any figure.
 */
export function readResults(
  file: string,
  options: { requireFigures?: boolean } = {},
): Record<string, unknown> {
  let text: string;
  try {
    text = readFileSync(file, "utf8");
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    const why =
      code === "ENOENT"
        ? "no such file"
        : code === "EISDIR"
          ? "it is a directory, not a file"
          : (error as Error).message;
    throw new ResultsFileError(
      `${file}: cannot read it (${why}); give a results file \`npm run bench\` wrote, e.g. bench/results.json, or save one first with \`git show HEAD:bench/results.json > old.json\``,
    );
  }
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch (error) {
    throw new ResultsFileError(
      `${file}: not JSON (${(error as Error).message}); a results file is the JSON \`npm run bench\` writes`,
    );
  }
  if (typeof parsed !== "object" || parsed === null || Array.isArray(parsed))
    throw new ResultsFileError(
      `${file}: holds ${Array.isArray(parsed) ? "an array" : parsed === null ? "null" : `a ${typeof parsed}`}, not an object of benchmark results like bench/results.json`,
    );
  if (options.requireFigures !== false && flattenFigures(parsed).size === 0)
    throw new ResultsFileError(
      `${file}: has no numeric figures (no benchmark entry such as "turn" or "core"); is it a results file \`npm run bench\` wrote?`,
    );
  return parsed as Record<string, unknown>;
}
