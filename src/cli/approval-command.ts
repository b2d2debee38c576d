import { userInfo } from "node:os";
import { z } from "zod";
import { approvalIdSchema, approverSchema } from "../session/index.ts";
import { sessionIdSchema } from "./arg-schemas.ts";
import { approvalLines } from "./approval-lines.ts";
import type { CliContext, Command } from "./cli-context.ts";
import { CliError } from "./cli-error.ts";
import { parseCommandArgs } from "./command-args.ts";
import { withSessions } from "./connect.ts";
import { ExitCode, exitCodesHelp } from "./exit-codes.ts";
import { writeJson, writeLine } from "./output.ts";
import { onSession } from "./session-errors.ts";

const schema = z.object({
  session: sessionIdSchema,
  approval: approvalIdSchema.optional(),
  reason: z.string().trim().min(1).max(1_000, "--reason: at most 1,000 characters").optional(),
  as: approverSchema.optional(),
  json: z.boolean().default(false),
});

/** Who the record names when `--as` is not given: the local user, marked as from the CLI. */
export function defaultApprover(): string {
  try {
    return `${userInfo().username} (CLI)`;
  } catch {
    return "CLI user";
  }
}

function helpFor(verb: "approve" | "deny"): string {
  const effect =
    verb === "approve"
      ? "The tool then runs and the turn goes on."
      : "The model is told the call was refused (with your reason) and the turn goes on without it.";
  return `Usage: agentdock-temporal ${verb} <session> [approval-id] [--reason TEXT] [--as NAME] [--json]

Answers a tool call that waits for a person's approval: ${verb === "approve" ? "approves" : "denies"} it. ${effect}
Without an approval id, the one pending in the session (a turn's calls run one at a time, so
there is at most one; "agentdock-temporal approvals <session>" lists it). The session records
who answered, when and why. If someone answered first, this fails and says who did.

Options:
  --reason TEXT  why (kept with the decision${verb === "deny" ? " and told to the model" : ""})
  --as NAME      who decides (default: your user name, "<user> (CLI)")
  --json         the decision as JSON: {"approvalId", "tool", "decision": {"outcome", "by", "at", "reason"}}
  -h, --help     this help

${exitCodesHelp}`;
}

async function decide(
  verb: "approve" | "deny",
  command: Command,
  argv: readonly string[],
  context: CliContext,
): Promise<number> {
  const args = parseCommandArgs(
    command,
    argv,
    {
      options: {
        reason: { type: "string" },
        as: { type: "string" },
        json: { type: "boolean" },
      },
      positionals: [{ name: "session" }, { name: "approval", optional: true }],
      schema,
    },
    context,
  );
  if (args === undefined) return ExitCode.ok;
  const result = await withSessions(context, (connected) =>
    onSession(args.session, connected, async () => {
      let approvalId = args.approval;
      if (approvalId === undefined) {
        const { pending } = await connected.sessions.approvals(args.session);
        const [only] = pending;
        if (only === undefined) {
          throw new CliError(
            `session "${args.session}" has no tool call waiting for approval ("agentdock-temporal approvals ${args.session} --all" shows the decided ones)`,
          );
        }
        for (const line of approvalLines(only)) writeLine(context.stderr, line);
        approvalId = only.approvalId;
      }
      return connected.sessions.decideApproval(args.session, {
        approvalId,
        decision: verb,
        by: args.as ?? defaultApprover(),
        ...(args.reason === undefined ? {} : { reason: args.reason }),
      });
    }),
  );
  if (args.json) {
    writeJson(context.stdout, result);
    return ExitCode.ok;
  }
  const { decision } = result;
  writeLine(
    context.stdout,
    `${decision.outcome === "approved" ? "Approved" : "Denied"} ${result.tool} (${result.approvalId}) in session ${args.session} as ${decision.by}${decision.reason === undefined ? "" : `: ${decision.reason}`}.`,
  );
  return ExitCode.ok;
}

/** The `approve` or `deny` command: one shape, the decision differs. */
export function approvalCommand(verb: "approve" | "deny"): Command {
  const command: Command = {
    name: verb,
    summary:
      verb === "approve"
        ? "approve a tool call waiting for a person"
        : "deny a tool call waiting for a person",
    help: helpFor(verb),
    run: (argv, context) => decide(verb, command, argv, context),
  };
  return command;
}
