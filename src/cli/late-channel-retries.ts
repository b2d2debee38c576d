let installed = false;

/**
 * Once a command closes its Temporal connections (it finished, or it is shutting down), a call
 * cut by that close can still be retried by the Temporal client from a timer, which then throws
 * "Channel has been shut down" (a race in the client's retry interceptor): nothing waits on that
 * call any more, so exactly that error no longer crashes the process. Anything else still does.
 * Installed once; call it before closing connections.
 */
export function ignoreLateClosedChannelRetries(): void {
  if (installed) return;
  installed = true;
  process.on("uncaughtException", (error) => {
    if (error.message === "Channel has been shut down") return;
    console.error(error);
    process.exit(1);
  });
}
