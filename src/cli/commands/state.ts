import { z } from "zod";
import { sessionIdSchema } from "../arg-schemas.ts";
import type { Command } from "../cli-context.ts";
import { parseCommandArgs } from "../command-args.ts";
import { withSessions } from "../connect.ts";
import { ExitCode, exitCodesHelp } from "../exit-codes.ts";
import { writeJson, writeLine } from "../output.ts";
import { formatState } from "../session-format.ts";
import { onSession } from "../session-errors.ts";

const help = `Usage: agentdock-temporal state <session> [--json]

Where a session is: status, active step, sequence progress, allowed tools, recently used tools,
turns and token usage (the session's \`state\` query; ended sessions answer too). Needs a worker.

Options:
  --json       the SessionView as JSON
  -h, --help   this help

${exitCodesHelp}`;

const schema = z.object({ session: sessionIdSchema, json: z.boolean().default(false) });

export const stateCommand: Command = {
  name: "state",
  summary: "a session's step, sequence, allowed tools, turns and tokens",
  help,
  async run(argv, context) {
    const args = parseCommandArgs(
      stateCommand,
      argv,
      { options: { json: { type: "boolean" } }, positionals: [{ name: "session" }], schema },
      context,
    );
    if (args === undefined) return ExitCode.ok;
    const view = await withSessions(context, (connected) =>
      onSession(args.session, connected, () => connected.sessions.state(args.session)),
    );
    if (args.json) writeJson(context.stdout, view);
    else writeLine(context.stdout, formatState(view));
    return ExitCode.ok;
  },
};
