import type { History } from "@temporalio/common/lib/proto-utils.js";
import { DefaultLogger, Runtime, Worker } from "@temporalio/worker";
import { DeterminismViolationError } from "@temporalio/workflow";
import { z } from "zod";
import { workflowIdFor } from "../../session/index.ts";
import { bundleSessionWorkflows } from "../../worker/session-worker.ts";
import { sessionIdSchema } from "../arg-schemas.ts";
import type { CliContext, Command } from "../cli-context.ts";
import { usageError } from "../cli-error.ts";
import { parseCommandArgs } from "../command-args.ts";
import { withSessions } from "../connect.ts";
import { ExitCode, exitCodesHelp } from "../exit-codes.ts";
import { isFile, readHistoryFile, type HistoryFile } from "../history-file.ts";
import { writeJson, writeLine } from "../output.ts";
import {
  divergingEvent,
  formatDivergingEvent,
  nondeterminismDetail,
} from "../replay-divergence.ts";
import { onSession } from "../session-errors.ts";
import { cliToolCatalogue } from "../cli-tool-registry.ts";
import { runTemplateCheck } from "../template-check.ts";
import { templateOption } from "../template-option.ts";

const help = `Usage: agentdock-temporal replay <session> | <history.json> [--workflow-id ID] [--json]
       agentdock-temporal replay --template <file|dir> <session | history.json>… [--json]

Replays a session's history against the workflow code as it is now (bundled with the AI SDK
plugin, exactly as the worker runs it) and reports whether the code is still deterministic for
it: the check to run before deploying a workflow change. Given a session id the history is
fetched from Temporal (its current run); given a file it is read from it: {workflowId, history}
as in test/replay/histories/, or a bare history from \`temporal workflow show --output json\`.
On nondeterminism it prints the core's error, which names the diverging event, and exits 1.

With --template, checks a template change instead of a code change: each session's recorded
messages, tool outcomes and worker reports are decided again by the orchestrator under the new
template, and compared with the decisions under the template(s) the session ran. Per session it
prints "same decisions for all N messages" or the first message where the active step or the
tools offered to the model would differ, and exits 1 if any differs or cannot be checked (run it
in CI before shipping a template). Sessions of agents the template does not cover are skipped
(listed, not failed); comparing no session at all exits 1. Sessions are read from Temporal with
every run (continue-as-new); files as above. The template is loaded and validated like a new
session's.

Options:
  --template PATH   the new template: a template file, a folder with template.json, or a folder
                    of <agent-id>/template.json (each session is checked against its agent's)
  --workflow-id ID  the workflow id to replay a bare history file as (default: the file's name)
  --json            {workflowId, events, deterministic, error?, divergingEvent?}; with
                    --template, one {target, agentId, fromVersion, toVersion, outcome: same |
                    different | unreadable | skipped | error, messages, fromMessage, first?: {turn,
                    text, activeStep, offeredTools, modelCall?}} per target
  -h, --help        this help

${exitCodesHelp}`;

const schema = z.object({
  targets: z.array(z.string().min(1)).min(1),
  template: z.string().min(1).optional(),
  "workflow-id": z.string().min(1).optional(),
  json: z.boolean().default(false),
});

async function loadHistory(
  target: string,
  workflowId: string | undefined,
  context: CliContext,
): Promise<HistoryFile> {
  if (isFile(target)) return readHistoryFile(target, workflowId);
  if (target.endsWith(".json")) throw usageError(`no such file ${target}`);
  const session = sessionIdSchema.safeParse(target);
  if (!session.success) {
    throw usageError(`"${target}" is neither a history file nor a session id`);
  }
  const history = await withSessions(context, (connected) =>
    onSession(target, connected, () => connected.sessions.handle(target).fetchHistory()),
  );
  return { workflowId: workflowIdFor(target), history };
}

type Outcome =
  { deterministic: true } | { deterministic: false; error: string; nondeterminism: boolean };

async function replay(file: HistoryFile): Promise<Outcome> {
  try {
    await Worker.runReplayHistory(
      { workflowBundle: await bundleSessionWorkflows({ logger: new DefaultLogger("WARN") }) },
      file.history,
      file.workflowId,
    );
    return { deterministic: true };
  } catch (error) {
    if (error instanceof DeterminismViolationError) {
      return {
        deterministic: false,
        error: nondeterminismDetail(error.message),
        nondeterminism: true,
      };
    }
    // Not a divergence: the code failed the workflow task (a thrown error, a missing export…).
    return {
      deterministic: false,
      error: error instanceof Error ? error.message : String(error),
      nondeterminism: false,
    };
  }
}

function eventCount(history: History): number {
  return history.events?.length ?? 0;
}

export const replayCommand: Command = {
  name: "replay",
  summary:
    "replay sessions against the current code, or (--template) their decisions under a new template",
  help,
  async run(argv, context) {
    const args = parseCommandArgs(
      replayCommand,
      argv,
      {
        options: {
          "workflow-id": { type: "string" },
          template: { type: "string" },
          json: { type: "boolean" },
        },
        positionals: [{ name: "targets", list: true }],
        schema,
      },
      context,
    );
    if (args === undefined) return ExitCode.ok;
    if (args.template !== undefined) {
      if (args["workflow-id"] !== undefined) {
        throw usageError("--workflow-id applies to a code replay, not to --template");
      }
      const option = templateOption(args.template, await cliToolCatalogue(context));
      const same = await runTemplateCheck(args.targets, option, args.json, context);
      return same ? ExitCode.ok : ExitCode.failed;
    }
    const [target, extra] = args.targets;
    if (target === undefined || extra !== undefined) {
      throw usageError(
        `a code replay takes one session or file (got ${args.targets.length}); --template checks several`,
      );
    }
    const file = await loadHistory(target, args["workflow-id"], context);
    // The core's "Failing workflow task" warning would repeat the error this command reports.
    Runtime.install({
      logger: new DefaultLogger("ERROR"),
      telemetryOptions: { logging: { filter: { core: "ERROR", other: "ERROR" } } },
    });
    if (!args.json) {
      writeLine(
        context.stderr,
        `replaying ${file.workflowId} (${eventCount(file.history)} events) against the current workflow code…`,
      );
    }
    const outcome = await replay(file);
    const diverged =
      outcome.deterministic || !outcome.nondeterminism
        ? undefined
        : divergingEvent(outcome.error, file.history);
    if (args.json) {
      writeJson(context.stdout, {
        workflowId: file.workflowId,
        events: eventCount(file.history),
        ...outcome,
        ...(diverged === undefined ? {} : { divergingEvent: diverged }),
      });
    } else if (outcome.deterministic) {
      writeLine(context.stdout, `✓ ${file.workflowId} replays without nondeterminism.`);
    } else {
      writeLine(
        context.stdout,
        `✗ ${file.workflowId}: ${outcome.nondeterminism ? "nondeterminism" : "replay failed"}: ${outcome.error}`,
      );
      if (diverged !== undefined) {
        writeLine(context.stdout, `  first diverging event: ${formatDivergingEvent(diverged)}`);
      }
    }
    return outcome.deterministic ? ExitCode.ok : ExitCode.failed;
  },
};
