import { InterceptingCall, Metadata, status, type Interceptor } from "@grpc/grpc-js";

/** What `InterceptingCall` wraps (grpc-js does not export the interface by name). */
type NextCallInterface = ConstructorParameters<typeof InterceptingCall>[0];
import { defaultGrpcRetryOptions, makeGrpcRetryInterceptor } from "@temporalio/client";

/** A call that fails with CANCELLED as soon as it starts, and does nothing else. */
function failedCall(details: string): NextCallInterface {
  return {
    start: (_metadata, listener) => {
      setImmediate(() => {
        listener?.onReceiveStatus?.({ code: status.CANCELLED, details, metadata: new Metadata() });
      });
    },
    cancelWithStatus: () => undefined,
    getPeer: () => "",
    sendMessageWithContext: () => undefined,
    sendMessage: () => undefined,
    startRead: () => undefined,
    halfClose: () => undefined,
    getAuthContext: () => null,
  };
}

/**
 * The Temporal client retries a failed call from a timer; if the connection is closed before
 * the timer fires (a server stopping while the process shuts down), the retry throws "Channel
 * has been shut down" from that timer, an uncaught exception that kills the process. This sits
 * below the retries and turns that throw into the call failing with CANCELLED, which the
 * retries pass on to the caller like any other error.
 */
export const closedChannelGuard: Interceptor = (options, nextCall) => {
  try {
    return new InterceptingCall(nextCall(options));
  } catch (error) {
    const details = `the connection to Temporal is closed (${error instanceof Error ? error.message : String(error)})`;
    return new InterceptingCall(failedCall(details));
  }
};

/**
 * Interceptors for every client connection: Temporal's retries (`retry`, the SDK's defaults
 * unless given), then the guard against retrying on a closed connection.
 */
export function clientConnectionInterceptors(
  retry: Interceptor = makeGrpcRetryInterceptor(defaultGrpcRetryOptions()),
): Interceptor[] {
  return [retry, closedChannelGuard];
}
