import { randomUUID } from "node:crypto";
import { z } from "zod";
import { agentIdSchema, dirsSchema, sessionIdSchema } from "../arg-schemas.ts";
import { agentsDirs, loadAgentTemplate } from "../agent-dirs.ts";
import { runChat } from "../chat-repl.ts";
import type { Command } from "../cli-context.ts";
import { cliToolCatalogue } from "../cli-tool-registry.ts";
import { CliError } from "../cli-error.ts";
import { parseCommandArgs } from "../command-args.ts";
import { withSessions } from "../connect.ts";
import { ExitCode, exitCodesHelp } from "../exit-codes.ts";
import { writeLine } from "../output.ts";
import { warnIfNoWorker } from "../worker-check.ts";

const help = `Usage: agentdock-temporal chat <agent> [--session ID] [--dir DIR…]

An interactive chat with an agent on a running Temporal (from the environment: TEMPORAL_ADDRESS…)
served by a running worker (agentdock-temporal worker, or agentdock-temporal dev). Unlike npm start
it starts neither. Each line is a message; while the turn runs, step changes, tool calls and
refusals print as they happen, then the reply. Ctrl-C, Ctrl-D or /exit ends the chat; the session
is kept and --session continues it. Input can be piped (one message per line). A tool call that
waits for a person's approval is shown with its input and asks "approve <tool>? [y/n]": the next
line answers it ("y", "n", either followed by a reason); without one it keeps waiting for
agentdock-temporal approve|deny.

Options:
  --session ID  continue this session if it is running, or start a new one with this id
                (default: a new random id)
  --dir DIR     another folder of <id>/template.json (repeatable; also AGENTDOCK_AGENTS_DIR)
  -h, --help    this help

${exitCodesHelp}`;

const schema = z.object({
  agent: agentIdSchema,
  session: sessionIdSchema.optional(),
  dir: dirsSchema,
});

export const chatCommand: Command = {
  name: "chat",
  summary: "chat with an agent, step changes and tool calls shown live",
  help,
  async run(argv, context) {
    const args = parseCommandArgs(
      chatCommand,
      argv,
      {
        options: { session: { type: "string" }, dir: { type: "string", multiple: true } },
        positionals: [{ name: "agent" }],
        schema,
      },
      context,
    );
    if (args === undefined) return ExitCode.ok;
    const { template } = loadAgentTemplate(
      args.agent,
      agentsDirs(context, args.dir),
      await cliToolCatalogue(context),
    );
    const sessionId = args.session ?? randomUUID().slice(0, 8);
    await withSessions(context, async (connected) => {
      const { sessions, settings } = connected;
      const resumed = args.session !== undefined && (await sessions.isRunning(sessionId));
      if (resumed) {
        const { agentId } = await sessions.state(sessionId);
        if (agentId !== template.id) {
          throw new CliError(
            `session "${sessionId}" talks to agent ${agentId}, not ${template.id}: run agentdock-temporal chat ${agentId} --session ${sessionId}`,
          );
        }
      }
      await warnIfNoWorker(connected, context);
      writeLine(
        context.stdout,
        `${resumed ? "Continuing" : "New"} session ${sessionId} with ${template.name} (${template.id}) on ${settings.address}, task queue ${connected.taskQueue}.`,
      );
      writeLine(
        context.stdout,
        "Type a message and press Enter; Ctrl-C, Ctrl-D or /exit to stop.\n",
      );
      // Outside a terminal readline sees no Ctrl-C: end the input so the chat closes cleanly.
      const onSignal = (): void => {
        context.stdin.destroy();
      };
      process.once("SIGINT", onSignal);
      process.once("SIGTERM", onSignal);
      try {
        await runChat({
          sessions,
          template,
          sessionId,
          resumed,
          input: context.stdin,
          output: context.stdout,
          interactive: context.stdin.isTTY === true,
        });
      } finally {
        process.removeListener("SIGINT", onSignal);
        process.removeListener("SIGTERM", onSignal);
      }
    });
    writeLine(
      context.stdout,
      `\nSession ${sessionId} is kept. Continue it with: agentdock-temporal chat ${template.id} --session ${sessionId}`,
    );
    return ExitCode.ok;
  },
};
