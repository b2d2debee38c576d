import type { CliContext } from "./cli-context.ts";
import { findCommand, mainHelp } from "./command-table.ts";
import { errorExit } from "./error-exit.ts";
import { ExitCode } from "./exit-codes.ts";
import { writeLine } from "./output.ts";

/** Dispatches argv to its command and turns any failure into a message and an exit code. */
export async function runCli(argv: readonly string[], context: CliContext): Promise<number> {
  const [name, ...rest] = argv;
  if (name === undefined || name === "help" || name === "--help" || name === "-h") {
    if (name !== undefined) {
      writeLine(context.stdout, mainHelp());
      return ExitCode.ok;
    }
    writeLine(context.stderr, mainHelp());
    return ExitCode.usage;
  }
  const command = findCommand(name);
  if (command === undefined) {
    writeLine(
      context.stderr,
      `agentdock-temporal: unknown command "${name}"; run agentdock-temporal --help for the list.`,
    );
    return ExitCode.usage;
  }
  try {
    return await command.run(rest, context);
  } catch (error) {
    const { exitCode, message } = errorExit(error);
    writeLine(context.stderr, `agentdock-temporal ${command.name}: ${message}`);
    return exitCode;
  }
}
