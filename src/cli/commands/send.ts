import { randomUUID } from "node:crypto";
import { z } from "zod";
import { agentIdSchema, dirsSchema, messageIdSchema, sessionIdSchema } from "../arg-schemas.ts";
import { agentsDirs, loadAgentTemplate } from "../agent-dirs.ts";
import type { Command } from "../cli-context.ts";
import { parseCommandArgs } from "../command-args.ts";
import { withSessions } from "../connect.ts";
import { ExitCode, exitCodesHelp } from "../exit-codes.ts";
import { cliToolCatalogue } from "../cli-tool-registry.ts";
import { writeJson, writeLine } from "../output.ts";
import { formatTurnFooter } from "../session-format.ts";
import { onSession } from "../session-errors.ts";
import { warnIfNoWorker } from "../worker-check.ts";

const help = `Usage: agentdock-temporal send <session> <text…> [--agent ID] [--json]

Sends one message to a session and waits for the turn: prints the agent's reply on stdout and a
summary (turn, step, tools called, tokens) on stderr. With --agent the session is started if it
is not running (update-with-start); without it the session must be running. Needs a worker.

Options:
  --agent ID        start the session with this agent if needed (shipped agents, --dir,
                    AGENTDOCK_AGENTS_DIR)
  --dir DIR         another folder of <id>/template.json (repeatable)
  --message-id ID   the message's id: sending again with the same id returns the first result
                    and never runs the turn twice (default: a new random id); 1 to 128
                    letters, digits, '.', '_', ':' or '-'
  --json            the TurnResult as JSON (reply, tool calls, state, error)
  -h, --help        this help

A turn that fails (provider error, exhausted script…) prints the error and exits 1.

${exitCodesHelp}`;

const schema = z.object({
  session: sessionIdSchema,
  text: z.string().refine((text) => text.trim() !== "", "the message is empty"),
  agent: agentIdSchema.optional(),
  dir: dirsSchema,
  "message-id": messageIdSchema.optional(),
  json: z.boolean().default(false),
});

export const sendCommand: Command = {
  name: "send",
  summary: "send one message to a session and print the reply",
  help,
  async run(argv, context) {
    const args = parseCommandArgs(
      sendCommand,
      argv,
      {
        options: {
          agent: { type: "string" },
          dir: { type: "string", multiple: true },
          "message-id": { type: "string" },
          json: { type: "boolean" },
        },
        positionals: [{ name: "session" }, { name: "text", rest: true }],
        schema,
      },
      context,
    );
    if (args === undefined) return ExitCode.ok;
    const template =
      args.agent === undefined
        ? undefined
        : loadAgentTemplate(
            args.agent,
            agentsDirs(context, args.dir),
            await cliToolCatalogue(context),
          ).template;
    const messageId = args["message-id"] ?? randomUUID();
    const result = await withSessions(context, async (connected) => {
      const owner = await connected.sessions.owner(args.session);
      // A session that does not run (unknown or ended) is refused below in one line; warning
      // first that its message would wait for a worker would only mislead.
      if (template !== undefined || owner?.running === true) {
        await warnIfNoWorker(connected, context);
      }
      // --agent with the id of an ended session starts a new one under that id: say so, since
      // the ended session's conversation does not carry over.
      if (template !== undefined && owner !== undefined && !owner.running) {
        writeLine(
          context.stderr,
          `note: session "${args.session}" has ended; --agent starts a new session with the same id (the ended one's conversation is not carried over)`,
        );
      }
      const sent = await onSession(
        args.session,
        connected,
        () =>
          template === undefined
            ? connected.sessions.send(args.session, args.text, messageId)
            : connected.sessions.sendWithStart(
                { template, sessionId: args.session },
                args.text,
                messageId,
              ),
        "pass --agent ID to start it",
      );
      // The JSON shows the whole state: the reply leaves session-wide facts to the state query.
      return args.json ? connected.sessions.withSessionFacts(args.session, sent) : sent;
    });
    if (args.json) writeJson(context.stdout, result);
    else writeLine(context.stdout, result.text);
    for (const call of result.toolCalls) {
      if (call.status !== "ok") {
        writeLine(context.stderr, `  ✗ ${call.toolName} ${call.status}: ${call.detail ?? ""}`);
      }
    }
    if (!args.json) writeLine(context.stderr, formatTurnFooter(result));
    if (result.error !== undefined) {
      writeLine(context.stderr, `turn failed: ${result.error}`);
      return ExitCode.failed;
    }
    return ExitCode.ok;
  },
};
