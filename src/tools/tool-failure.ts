import { ApplicationFailure } from "@temporalio/common";

/**
 * A failure a tool throws for the model to read: `type` names it for callers and tests, the
 * message says what to do. Retryable failures are retried by the tool activity's retry policy.
 */
export function toolFailure(
  type: string,
  message: string,
  options: { nonRetryable: boolean; cause?: Error; details?: unknown[] },
): ApplicationFailure {
  return ApplicationFailure.create({ type, message, ...options });
}
