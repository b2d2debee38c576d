import { z } from "zod";
import { messageIdSchema, sessionIdSchema } from "../arg-schemas.ts";
import type { Command } from "../cli-context.ts";
import { parseCommandArgs } from "../command-args.ts";
import { withSessions } from "../connect.ts";
import { ExitCode, exitCodesHelp } from "../exit-codes.ts";
import { writeJson, writeLine } from "../output.ts";
import { onSession } from "../session-errors.ts";

const help = `Usage: agentdock-temporal cancel <session> [--message ID | --turn N] [--reason TEXT] [--json]

Stops the turn a session is running: its model and tool activities are cancelled, the turn is
recorded as cancelled with the text and tool calls it had produced (the model sees them next
turn), and the session goes on with the next queued message. Waits until the turn is recorded
and prints what it had written. Repeating it is harmless: a turn already cancelled is reported
again. Needs a worker.

Options:
  --message ID      stop only the turn answering this message id
  --turn N          stop only turn number N
  --reason TEXT     why (kept in the turn's event; default "cancelled by request")
  --json            the answer as JSON: {"cancelled", "turn", "messageId", "detail", "result"}
  -h, --help        this help

Exit status 0 when the turn is cancelled, 1 when nothing was (no turn running, or the turn
named had already finished; the message says which).

${exitCodesHelp}`;

const schema = z.object({
  session: sessionIdSchema,
  message: messageIdSchema.optional(),
  turn: z.coerce.number().int().positive("--turn: a turn number, 1 or more").optional(),
  reason: z.string().trim().min(1).max(500).optional(),
  json: z.boolean().default(false),
});

export const cancelCommand: Command = {
  name: "cancel",
  summary: "stop the turn a session is running",
  help,
  async run(argv, context) {
    const args = parseCommandArgs(
      cancelCommand,
      argv,
      {
        options: {
          message: { type: "string" },
          turn: { type: "string" },
          reason: { type: "string" },
          json: { type: "boolean" },
        },
        positionals: [{ name: "session" }],
        schema,
      },
      context,
    );
    if (args === undefined) return ExitCode.ok;
    const answer = await withSessions(context, (connected) =>
      onSession(args.session, connected, () =>
        connected.sessions.cancelTurn(args.session, {
          ...(args.message === undefined ? {} : { messageId: args.message }),
          ...(args.turn === undefined ? {} : { turn: args.turn }),
          ...(args.reason === undefined ? {} : { reason: args.reason }),
        }),
      ),
    );
    if (args.json) {
      writeJson(context.stdout, answer);
      return answer.cancelled ? ExitCode.ok : ExitCode.failed;
    }
    if (!answer.cancelled) {
      writeLine(context.stderr, `Nothing cancelled in session ${args.session}: ${answer.detail}.`);
      return ExitCode.failed;
    }
    const text = answer.result?.text ?? "";
    const calls = answer.result?.toolCalls.length ?? 0;
    writeLine(
      context.stdout,
      `Cancelled ${answer.detail.replace(/ was cancelled$/, "")} in session ${args.session}: it had written ${text.length} character(s) and made ${calls} tool call(s).`,
    );
    if (text !== "") writeLine(context.stdout, text);
    return ExitCode.ok;
  },
};
