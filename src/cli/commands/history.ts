import { z } from "zod";
import { sessionIdSchema } from "../arg-schemas.ts";
import type { Command } from "../cli-context.ts";
import { parseCommandArgs } from "../command-args.ts";
import { withSessions } from "../connect.ts";
import { ExitCode, exitCodesHelp } from "../exit-codes.ts";
import { writeJson, writeLine } from "../output.ts";
import { formatHistory } from "../session-format.ts";
import { onSession } from "../session-errors.ts";

const help = `Usage: agentdock-temporal history <session> [--json]

A session's conversation: your messages, the agent's replies, each tool call and what it
returned (the session's \`history\` query). Needs a worker.

Options:
  --json       the messages as JSON (AI SDK model messages)
  -h, --help   this help

${exitCodesHelp}`;

const schema = z.object({ session: sessionIdSchema, json: z.boolean().default(false) });

export const historyCommand: Command = {
  name: "history",
  summary: "a session's conversation with its tool calls",
  help,
  async run(argv, context) {
    const args = parseCommandArgs(
      historyCommand,
      argv,
      { options: { json: { type: "boolean" } }, positionals: [{ name: "session" }], schema },
      context,
    );
    if (args === undefined) return ExitCode.ok;
    const messages = await withSessions(context, (connected) =>
      onSession(args.session, connected, () => connected.sessions.history(args.session)),
    );
    if (args.json) writeJson(context.stdout, messages);
    else
      writeLine(
        context.stdout,
        messages.length === 0 ? "(no messages yet)" : formatHistory(messages),
      );
    return ExitCode.ok;
  },
};
