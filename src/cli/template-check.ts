import type { History } from "@temporalio/common/lib/proto-utils.js";
import { WorkflowNotFoundError } from "@temporalio/client";
import {
  compareDecisions,
  describeComparison,
  type DecisionComparison,
} from "../client/decision-diff.ts";
import {
  fetchSessionRuns,
  readSessionRecording,
  SessionRecordingError,
} from "../client/session-recording.ts";
import { workflowIdFor } from "../session/index.ts";
import { sessionIdSchema } from "./arg-schemas.ts";
import type { CliContext } from "./cli-context.ts";
import { CliError, usageError } from "./cli-error.ts";
import { withSessions, type Connected } from "./connect.ts";
import { isFile, readHistoryFile } from "./history-file.ts";
import { writeJson, writeLine } from "./output.ts";
import { NoTemplateForAgent, type TemplateOption } from "./template-option.ts";

/** One session's verdict under the new template, as `replay --template --json` prints it. */
export type TemplateCheck =
  | ({
      target: string;
      workflowId: string;
      agentId: string;
      /** The version the session started with (absent: started before versions). */
      fromVersion: string | null;
      toVersion: string;
    } & DecisionComparison)
  /** The template given is another agent's: nothing to compare this session with. */
  | { target: string; outcome: "skipped"; reason: string }
  | { target: string; outcome: "error"; error: string };

interface Runs {
  workflowId: string;
  runs: History[];
}

async function sessionRuns(target: string, connected: Connected): Promise<Runs> {
  try {
    return {
      workflowId: workflowIdFor(target),
      runs: await fetchSessionRuns(connected.client, target),
    };
  } catch (error) {
    if (error instanceof WorkflowNotFoundError) {
      throw new CliError(
        `no session "${target}" in namespace ${connected.settings.namespace} at ${connected.settings.address}`,
      );
    }
    throw error;
  }
}

function check(target: string, source: Runs, option: TemplateOption): TemplateCheck {
  const recording = readSessionRecording(source.workflowId, source.runs);
  const agentId = recording.input.template.id;
  const agent = option.forAgent(agentId);
  return {
    target,
    workflowId: source.workflowId,
    agentId,
    fromVersion: recording.input.templateVersion ?? null,
    toVersion: agent.version,
    ...compareDecisions(recording, agent.template),
  };
}

/**
 * `replay --template`: every target (a session id, read from Temporal with all its runs, or a
 * history file) replayed under the new template; one verdict per target, a failure on one never
 * hiding the others. Exit 1 when any differs or cannot be checked: the gate a team runs in CI
 * before shipping a template change.
 */
export async function runTemplateCheck(
  targets: readonly string[],
  option: TemplateOption,
  json: boolean,
  context: CliContext,
): Promise<boolean> {
  const files = targets.filter((target) => isFile(target));
  const sessions = targets.filter((target) => !isFile(target));
  for (const target of sessions) {
    if (target.endsWith(".json")) throw usageError(`no such file ${target}`);
    if (!sessionIdSchema.safeParse(target).success) {
      throw usageError(`"${target}" is neither a history file nor a session id`);
    }
  }
  const loaded = new Map<string, Runs | Error>();
  for (const file of files) {
    try {
      const history = readHistoryFile(file);
      loaded.set(file, { workflowId: history.workflowId, runs: [history.history] });
    } catch (error) {
      loaded.set(file, error instanceof Error ? error : new Error(String(error)));
    }
  }
  if (sessions.length > 0) {
    await withSessions(context, async (connected) => {
      for (const target of sessions) {
        try {
          loaded.set(target, await sessionRuns(target, connected));
        } catch (error) {
          if (!(error instanceof CliError)) throw error;
          loaded.set(target, error);
        }
      }
    });
  }
  const checks = targets.map((target): TemplateCheck => {
    const source = loaded.get(target);
    try {
      if (source === undefined || source instanceof Error) throw source ?? new Error("not read");
      return check(target, source, option);
    } catch (error) {
      if (error instanceof NoTemplateForAgent) {
        return { target, outcome: "skipped", reason: error.message };
      }
      if (!(error instanceof CliError || error instanceof SessionRecordingError)) throw error;
      return { target, outcome: "error", error: error.message };
    }
  });
  if (json) writeJson(context.stdout, checks);
  else {
    for (const result of checks) {
      if (result.outcome === "error") {
        writeLine(context.stdout, `✗ ${result.target}: ${result.error}`);
        continue;
      }
      if (result.outcome === "skipped") {
        writeLine(context.stdout, `- ${result.target}: skipped: ${result.reason}`);
        continue;
      }
      const mark = result.outcome === "same" ? "✓" : "✗";
      writeLine(
        context.stdout,
        `${mark} ${result.target} (agent ${result.agentId}, ${result.fromVersion ?? "unversioned"} → ${result.toVersion}): ${describeComparison(result)}`,
      );
    }
  }
  const count = (outcome: TemplateCheck["outcome"]): number =>
    checks.filter((result) => result.outcome === outcome).length;
  const compared = count("same") + count("different") + count("unreadable");
  if (!json) {
    writeLine(
      context.stderr,
      `${count("same")} same, ${count("different")} different, ${count("unreadable") + count("error")} not checked, ${count("skipped")} skipped (another agent's sessions)`,
    );
    if (compared === 0) writeLine(context.stderr, "No session was compared with the template.");
  }
  // Skipped sessions do not fail the check; comparing nothing at all does.
  return compared > 0 && checks.every((result) => ["same", "skipped"].includes(result.outcome));
}
