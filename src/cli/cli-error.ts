import { ExitCode, type ExitCodeValue } from "./exit-codes.ts";

/** A failure the CLI reports as one message on stderr, exiting with `exitCode`. */
export class CliError extends Error {
  override readonly name = "CliError";
  readonly exitCode: ExitCodeValue;

  constructor(message: string, exitCode: ExitCodeValue = ExitCode.failed, options?: ErrorOptions) {
    super(message, options);
    this.exitCode = exitCode;
  }
}

export function usageError(message: string): CliError {
  return new CliError(message, ExitCode.usage);
}
