import { ApplicationFailure } from "@temporalio/common";

/**
 * `ApplicationFailure.type` values a tool call fails with: a small set, so callers can branch on
 * them. All but `SearchUnavailable` (and a retryable `SummarizeFailed` or `ResearchFailed`) are non-retryable; their
 * messages are written for the model.
 */
export type ToolFailureType =
  | "UnknownTool"
  | "ToolInputError"
  | "SearchNotConfigured"
  | "SearchFailed"
  | "SearchUnavailable"
  | "SummarizeFailed"
  | "ResearchFailed"
  | "McpServerUnavailable"
  | "McpToolFailed";

/**
 * A failure a tool throws for the model to read: `type` names it for callers and tests, the
 * message says what to do. Retryable failures are retried by the tool activity's retry policy.
 */
export function toolFailure(
  type: ToolFailureType,
  message: string,
  options: { nonRetryable: boolean; cause?: Error; details?: unknown[] },
): ApplicationFailure {
  return ApplicationFailure.create({ type, message, ...options });
}
