import { runCli } from "./run-cli.ts";

/** Runs the CLI as a process entry point: the only place that reads process.env and the streams. */
export function runAsEntryPoint(argv: readonly string[]): void {
  runCli(argv, {
    env: process.env,
    stdin: process.stdin,
    stdout: process.stdout,
    stderr: process.stderr,
  }).then(
    (code) => {
      process.exitCode = code;
      ignoreLateClosedChannelRetries();
    },
    (error: unknown) => {
      console.error(error instanceof Error ? error.message : String(error));
      process.exitCode = 1;
    },
  );
}

/**
 * Once the command has finished, its Temporal connections are closed. A call cut by that close
 * can still be retried by the Temporal client from a timer, which then throws "Channel has been
 * shut down" (a race in the client's retry interceptor): nothing waits on that call any more, so
 * exactly that error no longer turns a finished command into a crash. Anything else still does.
 */
function ignoreLateClosedChannelRetries(): void {
  process.on("uncaughtException", (error) => {
    if (error.message === "Channel has been shut down") return;
    console.error(error);
    process.exit(1);
  });
}
