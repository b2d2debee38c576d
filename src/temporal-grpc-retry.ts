import {
  InterceptingCall,
  ListenerBuilder,
  RequesterBuilder,
  type Interceptor,
  type Metadata,
  type StatusObject,
} from "@grpc/grpc-js";
import { defaultGrpcRetryOptions, type GrpcRetryOptions } from "@temporalio/client";

/**
 * The Temporal client's gRPC retries, done so that closing a connection ends them.
 *
 * The SDK's own retry interceptor retries from a timer by opening a new call; when the
 * connection was closed meanwhile (Ctrl-C, a server stopping while a process shuts down, a
 * test's teardown), opening it throws "Channel has been shut down" from that timer: an uncaught
 * exception that kills the process. Here a retry that cannot open its call ends the call with
 * the last failure instead, which reaches the caller like any other error.
 *
 * Pass it as the connection's only interceptor (`interceptors: [temporalGrpcRetry()]`): it
 * replaces the SDK's default one, with the same backoff unless `options` says otherwise.
 */
export function temporalGrpcRetry(
  options: GrpcRetryOptions = defaultGrpcRetryOptions(),
): Interceptor {
  return (callOptions, nextCall) => {
    let request: unknown;
    const requester = new RequesterBuilder()
      .withStart((metadata: Metadata, listener, next) => {
        let attempt = 1;
        // A response is held until the status says whether its attempt is the one to report.
        // Once the first attempt's listener has seen a message, grpc-js holds back every status
        // until that message is passed on: it must be released, whichever attempt settles.
        let latest: { message: unknown } | undefined;
        let releaseFirstMessage: ((message: unknown) => void) | undefined;
        let deliverStatus: ((status: StatusObject) => void) | undefined;

        const settle = (status: StatusObject): void => {
          if (releaseFirstMessage !== undefined) releaseFirstMessage(latest?.message);
          else if (latest !== undefined) listener.onReceiveMessage(latest.message);
          deliverStatus?.(status);
        };
        const onStatus = (status: StatusObject): void => {
          if (!options.retryableDecider(attempt, status)) {
            settle(status);
            return;
          }
          setTimeout(
            () => {
              retry(status);
            },
            options.delayFunction(attempt, status),
          );
        };
        const retry = (lastFailure: StatusObject): void => {
          attempt++;
          try {
            const call = nextCall(callOptions);
            call.start(metadata, {
              onReceiveMessage: (message: unknown) => {
                latest = { message };
              },
              onReceiveStatus: onStatus,
            });
            call.sendMessage(request);
            call.halfClose();
          } catch {
            // The connection was closed while the retry waited: the last failure is the answer.
            settle(lastFailure);
          }
        };

        const firstAttempt = new ListenerBuilder()
          .withOnReceiveMessage((message: unknown, nextMessage: (message: unknown) => void) => {
            latest = { message };
            releaseFirstMessage = nextMessage;
          })
          .withOnReceiveStatus(
            (status: StatusObject, nextStatus: (status: StatusObject) => void) => {
              deliverStatus = nextStatus;
              onStatus(status);
            },
          )
          .build();
        next(metadata, firstAttempt);
      })
      .withSendMessage((message: unknown, next: (message: unknown) => void) => {
        request = message;
        next(message);
      })
      .build();
    return new InterceptingCall(nextCall(callOptions), requester);
  };
}
