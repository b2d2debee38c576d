import { defaultGrpcRetryOptions, type ConnectionOptions } from "@temporalio/client";
import { temporalGrpcRetry } from "../temporal-grpc-retry.ts";

type GrpcInterceptor = NonNullable<ConnectionOptions["interceptors"]>[number];

const RESOURCE_EXHAUSTED = 8;

/**
 * Requests whose RESOURCE_EXHAUSTED goes straight back to the HTTP client (429 or 503 with
 * Retry-After) instead of being retried for about 40 s while the request hangs: sending a
 * message (update-with-start). The stream subscriber's polls keep the usual retries.
 */
const answeredAtOnce = new Set(["ExecuteMultiOperation"]);

/**
 * The Temporal client's gRPC retries for the HTTP API (ending when the connection closes, see
 * temporal-grpc-retry.ts): the defaults, but see `answeredAtOnce`.
 */
export function apiGrpcRetryInterceptor(): GrpcInterceptor {
  const defaults = defaultGrpcRetryOptions();
  const usual = temporalGrpcRetry(defaults);
  const noRetryWhenExhausted = temporalGrpcRetry({
    delayFunction: defaults.delayFunction,
    retryableDecider: (attempt, status) =>
      (status.code as number) !== RESOURCE_EXHAUSTED && defaults.retryableDecider(attempt, status),
  });
  return (options, nextCall) => {
    const method = options.method_definition.path.split("/").at(-1) ?? "";
    return (answeredAtOnce.has(method) ? noRetryWhenExhausted : usual)(options, nextCall);
  };
}
