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
    },
    (error: unknown) => {
      console.error(error instanceof Error ? error.message : String(error));
      process.exitCode = 1;
    },
  );
}
