import { z } from "zod";
import { forkSession, quoteMessage, SessionForkError } from "../../client/index.ts";
import { sessionIdSchema } from "../arg-schemas.ts";
import type { Command } from "../cli-context.ts";
import { CliError } from "../cli-error.ts";
import { parseCommandArgs } from "../command-args.ts";
import { withSessions } from "../connect.ts";
import { ExitCode, exitCodesHelp } from "../exit-codes.ts";
import { writeJson, writeLine } from "../output.ts";
import { onSession } from "../session-errors.ts";

const help = `Usage: agentdock-temporal fork <session> --at N [--as ID] [--json]

Starts a new session that continues <session> as it was right after message N: the
conversation up to and including message N's turn, and the orchestration state (active step,
sequence position, tools used, token totals) recomputed from the parent's recorded history by
the same orchestrator, never copied. The parent is not touched. The fork keeps the parent's
agent, tenant and the template version message N ran under, and links to the parent (memo
parentSession and forkedAt, search attribute ParentSession). Send it messages like any session.
Needs a worker.

Options:
  --at N       the last message the fork keeps: its turn number (1 = the first message; send
               prints "[turn N …]" after each reply, state shows the session's turns)
  --as ID      the fork's session id (default: <session>-fork<N>-<6 hex>); must be unused
  --json       {sessionId, parentSession, forkedAt, text, templateVersion, state}
  -h, --help   this help

${exitCodesHelp}`;

const schema = z.object({
  session: sessionIdSchema,
  at: z.coerce.number().int("must be a whole number").min(1, "messages are numbered from 1"),
  as: sessionIdSchema.optional(),
  json: z.boolean().default(false),
});

export const forkCommand: Command = {
  name: "fork",
  summary: "start a new session from a session as it was after message N",
  help,
  async run(argv, context) {
    const args = parseCommandArgs(
      forkCommand,
      argv,
      {
        options: { at: { type: "string" }, as: { type: "string" }, json: { type: "boolean" } },
        positionals: [{ name: "session" }],
        schema,
      },
      context,
    );
    if (args === undefined) return ExitCode.ok;
    const outcome = await withSessions(context, (connected) =>
      onSession(args.session, connected, async () => {
        try {
          return await forkSession(connected.sessions, {
            parent: args.session,
            at: args.at,
            ...(args.as === undefined ? {} : { as: args.as }),
          });
        } catch (error) {
          if (error instanceof SessionForkError) {
            throw new CliError(`cannot fork "${args.session}": ${error.message}`, undefined, {
              cause: error,
            });
          }
          throw error;
        }
      }),
    );
    if (args.json) writeJson(context.stdout, outcome);
    else {
      writeLine(
        context.stdout,
        `Forked ${outcome.parentSession} at message ${outcome.forkedAt} (${quoteMessage(outcome.text)}) into ${outcome.sessionId}: step ${outcome.state.activeStep ?? "none"}, ${outcome.state.turn} turn(s), template ${outcome.templateVersion}.`,
      );
      writeLine(
        context.stderr,
        `Continue it: agentdock-temporal send ${outcome.sessionId} "<message>"`,
      );
    }
    return ExitCode.ok;
  },
};
