import { z } from "zod";
import { sessionIdSchema } from "../arg-schemas.ts";
import type { Command } from "../cli-context.ts";
import { parseCommandArgs } from "../command-args.ts";
import { withSessions } from "../connect.ts";
import { ExitCode, exitCodesHelp } from "../exit-codes.ts";
import { writeJson, writeLine } from "../output.ts";
import { onSession } from "../session-errors.ts";
import { inTurn, queuedMessages } from "../queued-messages.ts";

const help = `Usage: agentdock-temporal end <session> [--reason TEXT] [--wait SECONDS] [--json]

Ends a session once the messages it has accepted are answered. Waits for the session's
workflow to close and prints its final state; if messages are still queued when the wait is
over, says "ending: N messages queued" (the session ends by itself once they are answered).
Needs a worker.

Options:
  --reason TEXT     why (kept in the session's state; default "ended by request")
  --wait SECONDS    how long to wait for the session to close (default 30)
  --json            {"ended": true|false, "view": SessionView} as JSON
  -h, --help        this help

${exitCodesHelp}`;

const schema = z.object({
  session: sessionIdSchema,
  reason: z.string().trim().min(1).max(500).optional(),
  wait: z.coerce.number().min(0).max(3600).default(30),
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
        options: {
          reason: { type: "string" },
          wait: { type: "string" },
          json: { type: "boolean" },
        },
        positionals: [{ name: "session" }],
        schema,
      },
      context,
    );
    if (args === undefined) return ExitCode.ok;
    const outcome = await withSessions(context, (connected) =>
      onSession(args.session, connected, () =>
        connected.sessions.end(args.session, args.reason, { waitMs: args.wait * 1000 }),
      ),
    );
    const { view } = outcome;
    if (args.json) writeJson(context.stdout, outcome);
    else if (outcome.ended) {
      writeLine(
        context.stdout,
        `Session ${view.sessionId} ended after ${view.turn} turn(s)${view.endReason === undefined ? "" : `: ${view.endReason}`}.`,
      );
    } else {
      writeLine(
        context.stdout,
        `Session ${view.sessionId} is ending: ${inTurn(view) ? `a turn is running and ${queuedMessages(view)} more message(s) queued` : `${queuedMessages(view)} message(s) queued`}; it ends once they are answered.`,
      );
    }
    return ExitCode.ok;
  },
};
