import { randomBytes } from "node:crypto";
import { WorkflowExecutionAlreadyStartedError, WorkflowNotFoundError } from "@temporalio/client";
import { templateVersion } from "../agents/template-version.ts";
import type { OrchestrationState } from "../orchestration/index.ts";
import {
  agentIdKey,
  parentSessionKey,
  sessionStatusKey,
  templateVersionKey,
  tenantIdKey,
  tenantOf,
  turnCountKey,
  workflowIdFor,
  SESSION_WORKFLOW_TYPE,
  type CarriedSession,
  type SessionInput,
  type SessionView,
} from "../session/index.ts";
import {
  recomputeDecisions,
  recordingMismatch,
  type MessageDecision,
} from "./session-decisions.ts";
import type { SessionClient } from "./session-client.ts";
import { answeredTurns, conversationThrough, eventsThrough, failureAt } from "./fork-carry.ts";
import { fetchSessionRuns, readSessionRecording } from "./session-recording.ts";

/** Why a fork was refused; `code` is what the HTTP API and the CLI branch on. */
export class SessionForkError extends Error {
  override readonly name = "SessionForkError";
  readonly code: "not_found" | "out_of_range" | "id_taken" | "summarized" | "unreadable";

  constructor(code: SessionForkError["code"], message: string) {
    super(message);
    this.code = code;
  }
}

export interface ForkRequest {
  parent: string;
  /** The message (turn number, 1-based) whose turn the fork ends with. */
  at: number;
  /** The fork's session id (default: `<parent>-fork<at>-<6 hex>`). */
  as?: string;
}

export interface ForkOutcome {
  sessionId: string;
  parentSession: string;
  forkedAt: number;
  /** The text of message `at`, the last one the fork holds. */
  text: string;
  templateVersion: string;
  state: SessionView;
}

function defaultForkId(parent: string, at: number): string {
  const suffix = `-fork${at}-${randomBytes(3).toString("hex")}`;
  return `${parent.slice(0, 200 - suffix.length)}${suffix}`;
}

/** Whether a turn's recorded state and the recomputed one agree on what orchestration decides. */
function agrees(recorded: SessionView, state: OrchestrationState): boolean {
  return (
    recorded.activeStep === (state.activeStep ?? null) &&
    recorded.sequenceIndex === state.sequenceIndex &&
    recorded.toolCount === state.toolCount &&
    recorded.turn === state.turn &&
    recorded.recentlyUsedTools.join("\n") === state.recentlyUsedTools.join("\n")
  );
}

/**
 * Forks a session at message `at` into a new session: the conversation up to and including that
 * message's turn, and the orchestration state recomputed from the parent's recorded inputs (the
 * same pure orchestrator replaying the same messages, tool outcomes and worker reports), which
 * must agree with every turn result the parent recorded, or the fork is refused. The parent is
 * only read. The fork links to it (memo `parentSession`/`forkedAt`, search attribute
 * `ParentSession`) and keeps its tenant, settings and the template its turn `at` ran under.
 */
export async function forkSession(
  sessions: SessionClient,
  request: ForkRequest,
): Promise<ForkOutcome> {
  const { client } = sessions;
  const { parent, at } = request;
  let parentView: SessionView;
  let runs: Awaited<ReturnType<typeof fetchSessionRuns>>;
  try {
    parentView = await sessions.state(parent);
    runs = await fetchSessionRuns(client, parent);
  } catch (error) {
    if (error instanceof WorkflowNotFoundError) {
      throw new SessionForkError("not_found", `no session "${parent}"`);
    }
    throw error;
  }
  const log = await sessions.events(parent, 0);
  const completed = answeredTurns(parentView, log.events);
  const recording = readSessionRecording(workflowIdFor(parent), runs);
  const decisions = recomputeDecisions(recording);
  const first = recording.input.carried?.state.turn ?? 0;
  if (!Number.isInteger(at) || at < 1 || at > completed) {
    throw new SessionForkError(
      "out_of_range",
      completed === 0
        ? `session "${parent}" has no answered message to fork at yet`
        : `message ${at} is out of range: session "${parent}" has answered messages 1 to ${completed}`,
    );
  }
  if (at < first) {
    throw new SessionForkError(
      "out_of_range",
      `session "${parent}" starts at message ${first + 1} (it is a fork, or its older runs are gone): fork the session it came from to start before that`,
    );
  }
  const decision: MessageDecision | undefined = decisions.find((entry) => entry.turn === at);
  const mismatch = recordingMismatch(decisions.filter((entry) => entry.turn <= at));
  const disagreement = decisions.some(
    (entry) =>
      entry.turn <= at &&
      recording.entries.some(
        (recorded) =>
          recorded.type === "turn" &&
          recorded.turn === entry.turn &&
          recorded.result !== undefined &&
          !agrees(recorded.result.state, entry.stateAfter),
      ),
  );
  if ((decision === undefined && at !== first) || mismatch !== undefined || disagreement) {
    throw new SessionForkError(
      "unreadable",
      `session "${parent}"'s history does not recompute to what it recorded up to message ${at}; it cannot be forked safely`,
    );
  }
  if (at < parentView.summarizedTurns) {
    throw new SessionForkError(
      "summarized",
      `messages 1 to ${parentView.summarizedTurns} of session "${parent}" are folded into its running summary, so the conversation as it was at message ${at} is gone; fork at message ${parentView.summarizedTurns} or later`,
    );
  }

  const history = await sessions.history(parent);
  const { messages, summary } = conversationThrough(history, parentView.summarizedTurns, at);
  const state = decision?.stateAfter ?? recording.input.carried?.state;
  const template = decision?.template ?? recording.input.template;
  if (state === undefined) {
    throw new SessionForkError("unreadable", `session "${parent}" has no state at message ${at}`);
  }
  const lastStep = decision === undefined ? recording.input.carried?.lastStep : decision.lastStep;
  const lastFailure = failureAt(parentView, log.events, at);
  const processedIds = [
    ...(recording.input.carried?.processedIds ?? []),
    ...recording.entries.flatMap((entry) =>
      entry.type === "turn" && entry.turn <= at ? [entry.messageId] : [],
    ),
  ];
  const events = eventsThrough(log.events, at, parent);
  const carried: CarriedSession = {
    state,
    messages,
    ...(summary === undefined ? {} : { summary }),
    summarizedTurns: parentView.summarizedTurns,
    pending: [],
    processedIds,
    results: [],
    events,
    nextEventOffset: events.length,
    run: 0,
    ...(lastStep === undefined ? {} : { lastStep }),
    ...(lastFailure === undefined ? {} : { lastFailure }),
  };
  const sessionId = request.as ?? defaultForkId(parent, at);
  const version = templateVersion(template);
  const tenant = tenantOf(recording.input);
  const input: SessionInput = {
    sessionId,
    template,
    templateVersion: version,
    tenant,
    ...(recording.input.settings === undefined ? {} : { settings: recording.input.settings }),
    carried,
  };
  try {
    await client.workflow.start(SESSION_WORKFLOW_TYPE, {
      workflowId: workflowIdFor(sessionId),
      taskQueue: sessions.taskQueue,
      args: [input],
      workflowIdConflictPolicy: "FAIL",
      workflowIdReusePolicy: "REJECT_DUPLICATE",
      memo: { templateVersion: version, parentSession: parent, forkedAt: at },
      typedSearchAttributes: [
        { key: agentIdKey, value: template.id },
        { key: sessionStatusKey, value: lastFailure === undefined ? "idle" : "failed" },
        { key: turnCountKey, value: at },
        { key: tenantIdKey, value: tenant },
        { key: templateVersionKey, value: version },
        { key: parentSessionKey, value: parent },
      ],
      staticSummary: `${template.name} session · fork of ${parent} at message ${at}`,
      staticDetails: `Forked from session \`${parent}\` after message ${at}; agent **${template.name}** (\`${template.id}\`), template ${version}.`,
    });
  } catch (error) {
    if (error instanceof WorkflowExecutionAlreadyStartedError) {
      throw new SessionForkError(
        "id_taken",
        `session id "${sessionId}" is taken (a session with it exists or existed); choose another with --as`,
      );
    }
    throw error;
  }
  const text =
    decision?.text ??
    log.events.flatMap(({ event }) =>
      event.type === "turn_started" && event.turn === at ? [event.text] : [],
    )[0] ??
    "";
  return {
    sessionId,
    parentSession: parent,
    forkedAt: at,
    text,
    templateVersion: version,
    state: await sessions.state(sessionId),
  };
}
