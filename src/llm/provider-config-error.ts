/**
 * The worker's provider settings cannot serve a request: an API key or base URL is missing, or
 * an environment variable holds something unusable. `variables` names what to set. Retrying
 * cannot help; the activity layer reports it as a non-retryable failure.
 */
export class ProviderConfigError extends Error {
  override readonly name = "ProviderConfigError";
  readonly variables: readonly string[];

  constructor(message: string, variables: readonly string[]) {
    super(message);
    this.variables = variables;
  }
}
