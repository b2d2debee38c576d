import { z } from "zod";
import { sessionIdSchema } from "../arg-schemas.ts";
import type { Command } from "../cli-context.ts";
import { parseCommandArgs } from "../command-args.ts";
import { withSessions } from "../connect.ts";
import { ExitCode, exitCodesHelp } from "../exit-codes.ts";
import { writeJson, writeLine } from "../output.ts";
import { onSession } from "../session-errors.ts";

const help = `Usage: agentdock-temporal end <session> [--reason TEXT] [--json]

Ends a session once the messages it has accepted are answered, and prints its final state
(the \`endSessionAndWait\` update). Needs a worker.

Options:
  --reason TEXT  why (kept in the session's state; default "ended by request")
  --json         the final SessionView as JSON
  -h, --help     this help

${exitCodesHelp}`;

const schema = z.object({
  session: sessionIdSchema,
  reason: z.string().trim().min(1).max(500).optional(),
  json: z.boolean().default(false),
});

export const endCommand: Command = {
  name: "end",
  summary: "end a session after its queued messages are answered",
  help,
  async run(argv, context) {
    const args = parseCommandArgs(
      endCommand,
      argv,
      {
        options: { reason: { type: "string" }, json: { type: "boolean" } },
        positionals: [{ name: "session" }],
        schema,
      },
      context,
    );
    if (args === undefined) return ExitCode.ok;
    const view = await withSessions(context, (connected) =>
      onSession(args.session, connected, () => connected.sessions.end(args.session, args.reason)),
    );
    if (args.json) writeJson(context.stdout, view);
    else {
      writeLine(
        context.stdout,
        `Session ${view.sessionId} ended after ${view.turn} turn(s)${view.endReason === undefined ? "" : `: ${view.endReason}`}.`,
      );
    }
    return ExitCode.ok;
  },
};
