export interface SearchProviderErrorOptions {
  provider: string;
  /** True when the same request may succeed later (5xx, network, timeout). */
  retryable: boolean;
  /** HTTP status, when the provider answered at all. */
  status?: number;
  cause?: unknown;
}

/** A search request that failed, classified so the activity can decide whether to retry. */
export class SearchProviderError extends Error {
  override readonly name = "SearchProviderError";
  readonly provider: string;
  readonly retryable: boolean;
  readonly status: number | undefined;

  constructor(message: string, options: SearchProviderErrorOptions) {
    super(message, { cause: options.cause });
    this.provider = options.provider;
    this.retryable = options.retryable;
    this.status = options.status;
  }
}
