import { ApplicationFailure } from "@temporalio/common";
import type { SearchProviderError } from "../src/search/index.ts";
import type { ToolInputError } from "../src/tools/index.ts";
import type { ToolFailureType } from "./tool-types.ts";

function failure(
  type: ToolFailureType,
  message: string,
  options: { nonRetryable: boolean; cause?: Error; details?: unknown[] },
): ApplicationFailure {
  return ApplicationFailure.create({ type, message, ...options });
}

export function unknownToolFailure(name: string, known: readonly string[]): ApplicationFailure {
  return failure(
    "UnknownTool",
    `Unknown tool ${JSON.stringify(name)}; the available tools are ${known.join(", ")}`,
    { nonRetryable: true },
  );
}

/** Carries the validation message verbatim so the model can correct its call. */
export function toolInputFailure(error: ToolInputError): ApplicationFailure {
  return failure("ToolInputError", error.message, {
    nonRetryable: true,
    details: [{ tool: error.toolName, issues: error.issues.map((issue) => ({ ...issue })) }],
  });
}

export function searchNotConfiguredFailure(): ApplicationFailure {
  return failure(
    "SearchNotConfigured",
    [
      "Web search is not configured on this server, so no results are available.",
      "To enable it, an operator sets SEARCH_PROVIDER=searxng and SEARXNG_URL=http://<host>:<port> (the base URL of a SearXNG instance with the json format enabled) in the worker's environment and restarts the worker.",
      "Tell the user that search is unavailable instead of calling this tool again.",
    ].join(" "),
    { nonRetryable: true },
  );
}

export function searchProviderFailure(error: SearchProviderError): ApplicationFailure {
  return error.retryable
    ? failure("SearchUnavailable", error.message, { nonRetryable: false, cause: error })
    : failure("SearchFailed", error.message, { nonRetryable: true, cause: error });
}

export function summarizeFailure(
  message: string,
  options: { nonRetryable: boolean; cause?: Error },
): ApplicationFailure {
  return failure("SummarizeFailed", message, options);
}
