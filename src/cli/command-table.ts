import type { Command } from "./cli-context.ts";
import { agentsCommand } from "./commands/agents.ts";
import { approvalsCommand } from "./commands/approvals.ts";
import { approveCommand } from "./commands/approve.ts";
import { cancelCommand } from "./commands/cancel.ts";
import { chatCommand } from "./commands/chat.ts";
import { devCommand } from "./commands/dev.ts";
import { denyCommand } from "./commands/deny.ts";
import { endCommand } from "./commands/end.ts";
import { forkCommand } from "./commands/fork.ts";
import { historyCommand } from "./commands/history.ts";
import { replayCommand } from "./commands/replay.ts";
import { sendCommand } from "./commands/send.ts";
import { serveCommand } from "./commands/serve.ts";
import { sessionsCommand } from "./commands/sessions.ts";
import { startCommand } from "./commands/start.ts";
import { stateCommand } from "./commands/state.ts";
import { upgradeCommand } from "./commands/upgrade.ts";
import { workerCommand } from "./commands/worker.ts";
import { exitCodesHelp } from "./exit-codes.ts";

/** Every command, in the order the help lists them. */
export const commands: readonly Command[] = [
  startCommand,
  devCommand,
  workerCommand,
  serveCommand,
  chatCommand,
  sendCommand,
  sessionsCommand,
  stateCommand,
  historyCommand,
  cancelCommand,
  approvalsCommand,
  approveCommand,
  denyCommand,
  endCommand,
  forkCommand,
  upgradeCommand,
  agentsCommand,
  replayCommand,
];

export function findCommand(name: string): Command | undefined {
  return commands.find((command) => command.name === name);
}

export function mainHelp(): string {
  const width = Math.max(...commands.map((command) => command.name.length));
  const list = commands
    .map((command) => `  ${command.name.padEnd(width)}  ${command.summary}`)
    .join("\n");
  return `Usage: agentdock-temporal <command> [options]

Durable AI-agent sessions on Temporal. Run a command with --help for its options.

Commands:
${list}

Connection (every command but start and dev): Temporal's environment configuration,
  TEMPORAL_ADDRESS (default 127.0.0.1:7233), TEMPORAL_NAMESPACE (default "default"),
  TEMPORAL_API_KEY, TEMPORAL_TLS_*, TEMPORAL_PROFILE and its config file.
  AGENTDOCK_TASK_QUEUE   the workers' task queue (default "agentdock")
  AGENTDOCK_AGENTS_DIR   more template folders, separated like PATH

--json (send, sessions, state, history, cancel, approvals, approve, deny, end, fork, upgrade, agents, replay) prints one JSON document on stdout;
messages and errors go to stderr.

${exitCodesHelp}

Examples:
  npx agentdock-temporal dev                  # terminal 1: server + worker
  npx agentdock-temporal chat cognitive-reasoner
  npx agentdock-temporal send s1 "Please evaluate remote work" --agent cognitive-reasoner --json
  npx agentdock-temporal sessions --status running
  npx agentdock-temporal replay test/replay/histories/evaluation-turn.json`;
}
