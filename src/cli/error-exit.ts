import { NamespaceNotFoundError } from "@temporalio/common";
import { CliError } from "./cli-error.ts";
import { connectHint } from "./connect.ts";
import { ExitCode, type ExitCodeValue } from "./exit-codes.ts";
import { temporalOverload } from "../temporal-overload.ts";

/** What any error escaping a command means for the exit status, and the message to print. */
export function errorExit(error: unknown): { exitCode: ExitCodeValue; message: string } {
  if (error instanceof CliError) return { exitCode: error.exitCode, message: error.message };
  if (error instanceof NamespaceNotFoundError) {
    return {
      exitCode: ExitCode.unreachable,
      message: `namespace "${error.namespace}" does not exist on this Temporal server (TEMPORAL_NAMESPACE)\n${connectHint}`,
    };
  }
  const overload = temporalOverload(error);
  if (overload !== undefined) {
    return {
      exitCode: ExitCode.failed,
      message:
        overload.scope === "session"
          ? `the session is busy: too many messages in flight (${overload.message}); send again in a few seconds`
          : `Temporal is overloaded (${overload.message}); try again in a few seconds`,
    };
  }
  // node:util parseArgs (the start command parses its own options).
  const code = (error as { code?: unknown } | null)?.code;
  if (typeof code === "string" && code.startsWith("ERR_PARSE_ARGS")) {
    return { exitCode: ExitCode.usage, message: (error as Error).message };
  }
  return {
    exitCode: ExitCode.failed,
    message: error instanceof Error ? error.message : String(error),
  };
}
