import type { Readable } from "node:stream";

/** What a command gets from the entry point: the environment and the standard streams. */
export interface CliContext {
  env: Readonly<Record<string, string | undefined>>;
  stdin: Readable & { isTTY?: boolean };
  stdout: NodeJS.WritableStream;
  stderr: NodeJS.WritableStream;
}

/** One command of the CLI: `run` resolves to the exit code. */
export interface Command {
  name: string;
  /** One line for the command list. */
  summary: string;
  help: string;
  run(argv: readonly string[], context: CliContext): Promise<number> | number;
}
