import { z } from "zod";
import { upgradeSession } from "../../client/index.ts";
import type { LoadedAgent } from "../../agents/index.ts";
import { agentIdSchema, dirsSchema, sessionIdSchema } from "../arg-schemas.ts";
import { agentsDirs, loadAgentTemplate, shownPath } from "../agent-dirs.ts";
import type { Command } from "../cli-context.ts";
import { usageError } from "../cli-error.ts";
import { cliToolCatalogue } from "../cli-tool-registry.ts";
import { parseCommandArgs } from "../command-args.ts";
import { withSessions } from "../connect.ts";
import { ExitCode, exitCodesHelp } from "../exit-codes.ts";
import { writeJson, writeLine } from "../output.ts";
import { onSession } from "../session-errors.ts";
import { loadTemplateArg } from "../template-option.ts";

const help = `Usage: agentdock-temporal upgrade <session> [--agent ID | --template FILE] [--force] [--json]

Moves a running session to a new version of its template. A session pins the template version
it started with (a content hash, \`agents\` lists them) and keeps it until told otherwise; the
upgrade is applied at the next turn boundary (a turn in progress finishes under the old
version), recorded in the session's history (the update and a template_upgraded event), and the
orchestration state is carried over: a step the new template lacks gives way to its default
step, which the command reports. Check the change first with \`replay --template\`.
Needs a worker.

Options:
  --agent ID       the template of this agent from the agents folders (default: the
                   session's own agent, as its template file reads now)
  --dir DIR        another folder of <id>/template.json (repeatable)
  --template FILE  a template file (or a folder with template.json) instead
  --force          allow a template of another agent
  --json           {from, to, changed, notes, state}
  -h, --help       this help

The new template is validated like a new session's; an invalid one is refused with the loader's
message and the session is not touched.

${exitCodesHelp}`;

const schema = z.object({
  session: sessionIdSchema,
  agent: agentIdSchema.optional(),
  dir: dirsSchema,
  template: z.string().min(1).optional(),
  force: z.boolean().default(false),
  json: z.boolean().default(false),
});

export const upgradeCommand: Command = {
  name: "upgrade",
  summary: "move a running session to a new template version at its next turn boundary",
  help,
  async run(argv, context) {
    const args = parseCommandArgs(
      upgradeCommand,
      argv,
      {
        options: {
          agent: { type: "string" },
          dir: { type: "string", multiple: true },
          template: { type: "string" },
          force: { type: "boolean" },
          json: { type: "boolean" },
        },
        positionals: [{ name: "session" }],
        schema,
      },
      context,
    );
    if (args === undefined) return ExitCode.ok;
    if (args.agent !== undefined && args.template !== undefined) {
      throw usageError("give --agent or --template, not both");
    }
    const tools = await cliToolCatalogue(context);
    const outcome = await withSessions(context, (connected) =>
      onSession(args.session, connected, async () => {
        const view = await connected.sessions.state(args.session);
        const agentId = args.agent ?? view.agentId;
        const loaded: LoadedAgent | undefined =
          args.template === undefined
            ? loadAgentTemplate(agentId, agentsDirs(context, args.dir), tools)
            : loadTemplateArg(args.template, tools);
        if (loaded === undefined) {
          throw usageError(
            `--template ${args.template ?? ""} is a folder without template.json; name the template file`,
          );
        }
        if (loaded.template.id !== view.agentId && !args.force) {
          throw usageError(
            `${shownPath(loaded.file)} is agent "${loaded.template.id}", but session "${args.session}" runs agent "${view.agentId}"; pass --force to switch agents`,
          );
        }
        return upgradeSession(connected.sessions, args.session, loaded.template, {
          force: args.force,
        });
      }),
    );
    if (args.json) writeJson(context.stdout, outcome);
    else if (!outcome.changed) {
      writeLine(context.stdout, `Session ${args.session} already runs template ${outcome.to}.`);
    } else {
      writeLine(
        context.stdout,
        `Session ${args.session} upgraded: template ${outcome.from ?? "(unversioned)"} → ${outcome.to}; step ${outcome.state.activeStep ?? "none"}.`,
      );
      for (const note of outcome.notes) writeLine(context.stdout, `  note: ${note}`);
    }
    return ExitCode.ok;
  },
};
