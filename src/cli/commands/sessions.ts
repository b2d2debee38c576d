import { z } from "zod";
import { agentIdSchema } from "../arg-schemas.ts";
import type { Command } from "../cli-context.ts";
import { parseCommandArgs } from "../command-args.ts";
import { withSessions } from "../connect.ts";
import { ExitCode, exitCodesHelp } from "../exit-codes.ts";
import { formatTable, timeAgo, writeJson, writeLine } from "../output.ts";
import {
  executionStatuses,
  listSessions,
  type SessionListing,
} from "../../client/session-listing.ts";

const statusNames = Object.keys(executionStatuses) as (keyof typeof executionStatuses)[];

const help = `Usage: agentdock-temporal sessions [--status S] [--agent ID] [--limit N] [--json]

Lists sessions from Temporal visibility, newest first: agent, active step, status, turns and
last activity (the AgentId, ActiveStep, SessionStatus and TurnCount search attributes). A running
session shows whether it is idle, in a turn, or waiting after a turn that failed. Runs that
continued as new are not listed (their session is, under its current run) unless --status
continued-as-new asks for them.

Options:
  --status S   only sessions whose workflow is ${statusNames.join(", ")}
  --agent ID   only this agent's sessions
  --limit N    at most N sessions (default 50)
  --json       an array of {sessionId, agentId, activeStep, status, sessionStatus, turns,
               startTime, closeTime, lastActivity, workflowId, runId, taskQueue,
               templateVersion, parentSession}
  -h, --help   this help

Visibility is eventually consistent: a session started a moment ago may take a second to show.

${exitCodesHelp}`;

const schema = z.object({
  status: z.enum(statusNames).optional(),
  agent: agentIdSchema.optional(),
  limit: z.coerce.number().int().min(1).max(10_000).default(50),
  json: z.boolean().default(false),
});

function statusText(listing: SessionListing): string {
  if (listing.status !== "running") return listing.status;
  if (listing.sessionStatus === "running") return "running (in a turn)";
  if (listing.sessionStatus === "failed") return "running (last turn failed)";
  return listing.sessionStatus === null ? "running" : `running (${listing.sessionStatus})`;
}

export const sessionsCommand: Command = {
  name: "sessions",
  summary: "list sessions: agent, step, status, turns, last activity",
  help,
  async run(argv, context) {
    const args = parseCommandArgs(
      sessionsCommand,
      argv,
      {
        options: {
          status: { type: "string" },
          agent: { type: "string" },
          limit: { type: "string" },
          json: { type: "boolean" },
        },
        schema,
      },
      context,
    );
    if (args === undefined) return ExitCode.ok;
    const listings = await withSessions(context, (connected) =>
      listSessions(connected.client, {
        limit: args.limit,
        ...(args.status === undefined ? {} : { status: args.status }),
        ...(args.agent === undefined ? {} : { agent: args.agent }),
      }),
    );
    if (args.json) {
      writeJson(context.stdout, listings);
      return ExitCode.ok;
    }
    if (listings.length === 0) {
      writeLine(context.stdout, "No sessions.");
      return ExitCode.ok;
    }
    const now = new Date();
    const rows = listings.map((listing) => [
      listing.sessionId,
      listing.agentId ?? "?",
      listing.activeStep ?? "?",
      statusText(listing),
      listing.turns === null ? "?" : String(listing.turns),
      timeAgo(new Date(listing.lastActivity), now),
    ]);
    writeLine(
      context.stdout,
      formatTable([["SESSION", "AGENT", "STEP", "STATUS", "TURNS", "LAST ACTIVITY"], ...rows]),
    );
    return ExitCode.ok;
  },
};
