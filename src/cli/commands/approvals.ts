import { z } from "zod";
import { sessionIdSchema } from "../arg-schemas.ts";
import { approvalLines } from "../approval-lines.ts";
import type { Command } from "../cli-context.ts";
import { parseCommandArgs } from "../command-args.ts";
import { withSessions } from "../connect.ts";
import { ExitCode, exitCodesHelp } from "../exit-codes.ts";
import { writeJson, writeLine } from "../output.ts";
import { onSession } from "../session-errors.ts";

const help = `Usage: agentdock-temporal approvals <session> [--all] [--json]

Lists the tool calls of a session that wait for a person's approval: the approval id, the tool
and its input, the rule that asked for it and when it is denied if nobody answers. Answer one
with "agentdock-temporal approve <session>" or "deny <session>".

Options:
  --all       also the latest decided approvals: who decided, when and why
  --json      {"pending": [...], "decided": [...]} as the session reports them
  -h, --help  this help

${exitCodesHelp}`;

const schema = z.object({
  session: sessionIdSchema,
  all: z.boolean().default(false),
  json: z.boolean().default(false),
});

export const approvalsCommand: Command = {
  name: "approvals",
  summary: "list a session's tool calls waiting for approval",
  help,
  async run(argv, context) {
    const args = parseCommandArgs(
      approvalsCommand,
      argv,
      {
        options: { all: { type: "boolean" }, json: { type: "boolean" } },
        positionals: [{ name: "session" }],
        schema,
      },
      context,
    );
    if (args === undefined) return ExitCode.ok;
    const view = await withSessions(context, (connected) =>
      onSession(args.session, connected, () => connected.sessions.approvals(args.session)),
    );
    if (args.json) {
      writeJson(context.stdout, view);
      return ExitCode.ok;
    }
    if (view.pending.length === 0) {
      writeLine(context.stdout, `Session ${args.session} has no tool call waiting for approval.`);
    } else {
      writeLine(context.stdout, `Waiting for approval in session ${args.session}:`);
      for (const record of view.pending) {
        for (const line of approvalLines(record)) writeLine(context.stdout, line);
      }
    }
    if (args.all && view.decided.length > 0) {
      writeLine(context.stdout, "Decided:");
      for (const record of view.decided) {
        for (const line of approvalLines(record)) writeLine(context.stdout, line);
      }
    }
    return ExitCode.ok;
  },
};
