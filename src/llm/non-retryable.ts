import { APICallError } from "@ai-sdk/provider";
import { ModelAccessError } from "./model-access-error.ts";
import { ModelIdError } from "./model-id-error.ts";
import { ProviderConfigError } from "./provider-config-error.ts";
import { ScriptExhaustedError } from "./scripted/script-exhausted-error.ts";
import { ScriptFileError } from "./scripted/script-file-error.ts";

/**
 * Whether retrying the same model call cannot succeed: a configuration or script problem, or a
 * provider answer the SDK marks as not retryable (4xx other than 408/409/429). The activity layer
 * turns these into non-retryable failures.
 */
export function isNonRetryableModelError(error: unknown): boolean {
  return (
    error instanceof ProviderConfigError ||
    error instanceof ModelIdError ||
    error instanceof ModelAccessError ||
    error instanceof ScriptExhaustedError ||
    error instanceof ScriptFileError ||
    (APICallError.isInstance(error) && !error.isRetryable)
  );
}
