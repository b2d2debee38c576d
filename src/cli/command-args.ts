import { parseArgs, type ParseArgsOptionsConfig } from "node:util";
import type { z } from "zod";
import type { CliContext } from "./cli-context.ts";
import { usageError } from "./cli-error.ts";
import { writeLine } from "./output.ts";

export interface PositionalSpec {
  name: string;
  /** Takes every remaining argument, joined with spaces (a message needs no quotes). */
  rest?: boolean;
  /** Takes every remaining argument as a list (several sessions or files). */
  list?: boolean;
  optional?: boolean;
}

export interface ArgsSpec<S extends z.ZodType> {
  options: ParseArgsOptionsConfig;
  positionals?: readonly PositionalSpec[];
  /** Validates the options and the named positionals together. */
  schema: S;
}

function wantsHelp(argv: readonly string[]): boolean {
  const end = argv.indexOf("--");
  const before = end === -1 ? argv : argv.slice(0, end);
  return before.includes("--help") || before.includes("-h");
}

/**
 * Parses a command's arguments (node:util parseArgs) and validates them with zod. Prints the help
 * and returns undefined for --help; throws a usage error (exit 2) naming the argument otherwise.
 */
export function parseCommandArgs<S extends z.ZodType>(
  command: { name: string; help: string },
  argv: readonly string[],
  spec: ArgsSpec<S>,
  context: CliContext,
): z.output<S> | undefined {
  if (wantsHelp(argv)) {
    writeLine(context.stdout, command.help);
    return undefined;
  }
  const fail = (message: string): never => {
    throw usageError(`${message}\nRun agentdock-temporal ${command.name} --help for usage.`);
  };
  let parsed: { values: Record<string, unknown>; positionals: string[] };
  try {
    parsed = parseArgs({
      args: [...argv],
      options: spec.options,
      allowPositionals: true,
      strict: true,
    });
  } catch (error) {
    return fail(error instanceof Error ? error.message : String(error));
  }
  const input: Record<string, unknown> = { ...parsed.values };
  const remaining = [...parsed.positionals];
  for (const positional of spec.positionals ?? []) {
    const all = positional.rest === true || positional.list === true;
    const taken = all ? remaining.splice(0) : remaining.splice(0, 1);
    if (taken.length === 0) {
      if (positional.optional === true) continue;
      fail(`missing <${positional.name}>`);
    }
    input[positional.name] = positional.list === true ? taken : taken.join(" ");
  }
  if (remaining.length > 0) fail(`unexpected argument "${remaining[0] ?? ""}"`);

  const result = spec.schema.safeParse(input);
  if (!result.success) {
    const positionalNames = new Set((spec.positionals ?? []).map((positional) => positional.name));
    const issues = result.error.issues.map((issue) => {
      const key = String(issue.path[0] ?? "");
      const label = positionalNames.has(key) ? `<${key}>` : `--${key}`;
      return `${label}: ${issue.message}`;
    });
    fail(issues.join("; "));
  }
  return result.data;
}
