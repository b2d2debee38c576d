import {
  ApplicationFailure,
  WithStartWorkflowOperation,
  WorkflowUpdateStage,
  WorkflowNotFoundError,
  WorkflowUpdateFailedError,
  isGrpcServiceError,
  type Client,
  type Workflow,
  type WorkflowHandle,
} from "@temporalio/client";
import { setTimeout as sleep } from "node:timers/promises";
import proto from "@temporalio/proto";
import { templateVersion } from "../agents/template-version.ts";
import type { AgentTemplate } from "../orchestration/index.ts";
import { temporalOverload } from "../temporal-overload.ts";
import { workflowTaskFailing, workflowTaskFailingAdvice } from "./workflow-task-failing.ts";
import {
  agentIdKey,
  approvalsQuery,
  cancelTurnUpdate,
  decideApprovalUpdate,
  type ApprovalsView,
  type DecideApprovalRequest,
  type DecideApprovalResult,
  endSessionSignal,
  eventsQuery,
  historyQuery,
  sendMessageUpdate,
  sessionStatusKey,
  stateQuery,
  templateVersionKey,
  tenantIdKey,
  tenantOf,
  turnCountKey,
  userMessageSignal,
  workflowIdFor,
  DEFAULT_TENANT,
  SESSION_WORKFLOW_TYPE,
  STATE_ONLY_FIELDS,
  type CancelTurnRequest,
  type CancelTurnResult,
  type LoggedEvent,
  type SessionInput,
  type SessionMessage,
  type SessionResult,
  type SessionSettings,
  type SessionView,
  type TurnResult,
  type UserMessage,
} from "../session/index.ts";

export interface StartSessionOptions {
  template: AgentTemplate;
  sessionId: string;
  /** The creator's tenant (the default tenant when absent); its messages carry it too. */
  tenant?: string;
  settings?: SessionSettings;
}

/** Who a message to an existing session expects to reach; the workflow refuses a mismatch. */
export interface MessageOwner {
  agentId?: string;
  tenant?: string;
}

/** gRPC's NOT_FOUND status code. */
const grpcNotFound = 5;

/** How long `end` waits for the session's workflow to close before reporting it as ending. */
export const DEFAULT_END_WAIT_MS = 10_000;

/** What `end` found: the session closed (its final state), or still answering queued messages. */
export interface EndOutcome {
  ended: boolean;
  view: SessionView;
}

/** A request the session refused (validator) or could not answer; the message is the session's reason. */
export class SessionRequestError extends Error {
  override readonly name = "SessionRequestError";
  /** The refusal's type when the session named one (`AgentMismatch`, `TenantMismatch`). */
  readonly type: string | undefined;

  constructor(message: string, options: { cause?: unknown; type?: string | undefined } = {}) {
    super(message, { cause: options.cause });
    this.type = options.type;
  }
}

/**
 * Temporal answers a request to a closed workflow with WorkflowNotFoundError too; only its
 * message tells "this session has ended" from "there is no such session".
 */
export function isEndedSessionError(error: WorkflowNotFoundError): boolean {
  return /already completed/i.test(error.message);
}

/**
 * How a message waits for room in its session. Temporal holds at most a few updates in flight
 * per workflow (each waiting caller is one) and refuses more with RESOURCE_EXHAUSTED; the room
 * frees as turns finish. So a message sent into a burst waits while the session makes progress
 * (its history grows), and gives up, with the refusal, once it has made none for `stallMs` or
 * after `maxWaitMs` in all.
 */
export interface RoomWait {
  stallMs: number;
  maxWaitMs: number;
  /**
   * How long a request keeps being sent again while the server refuses it because the session's
   * workflow task is failing (see `workflowTaskFailing`); DEFAULT_FAILED_TASK_WAIT_MS when absent.
   */
  failedTaskWaitMs?: number;
}

export const DEFAULT_ROOM_WAIT: RoomWait = { stallMs: 30_000, maxWaitMs: 10 * 60_000 };

/**
 * A failing workflow task is retried by the server after each attempt's task timeout (10 s by
 * default, plus a backoff from the fourth attempt), so a task that heals does so within a few
 * attempts: a minute covers an overloaded or restarted worker without hiding a broken one.
 */
export const DEFAULT_FAILED_TASK_WAIT_MS = 60_000;

/** Why SessionClient sent a request again (for callers that count or log retries). */
export type SessionRetryReason = "session-full" | "unprocessed-update" | "workflow-task-failing";

/** The refusal's type when a session's workflow task kept failing past `failedTaskWaitMs`. */
export const WORKFLOW_TASK_FAILING = "WorkflowTaskFailing";

/**
 * The server's "Workflow Update is rejected because it wasn't processed by worker": the workflow
 * task that carried the update ended without taking it (seen under a burst of 100 updates), so
 * the update never reached the workflow and sending it again is safe (a message id counts once).
 */
function unprocessedUpdate(error: unknown): boolean {
  return (
    error instanceof WorkflowUpdateFailedError &&
    error.cause instanceof ApplicationFailure &&
    error.cause.type === "UnprocessedUpdate"
  );
}

const jittered = (ms: number): number => ms / 2 + Math.random() * (ms / 2);

async function withRoom<T>(
  sessionId: string,
  wait: RoomWait,
  progress: () => Promise<number | undefined>,
  request: () => Promise<T>,
  onRetry: (reason: SessionRetryReason) => void,
): Promise<T> {
  const started = Date.now();
  let lastProgress = started;
  let lastMark: number | undefined;
  let failingSince: number | undefined;
  for (let attempt = 0; ; attempt++) {
    try {
      return await request();
    } catch (error) {
      if (workflowTaskFailing(error)) {
        const now = Date.now();
        failingSince ??= now;
        const waited = now - failingSince;
        if (waited >= (wait.failedTaskWaitMs ?? DEFAULT_FAILED_TASK_WAIT_MS)) {
          throw new SessionRequestError(workflowTaskFailingAdvice(sessionId, waited), {
            cause: error,
            type: WORKFLOW_TASK_FAILING,
          });
        }
        onRetry("workflow-task-failing");
        // 500 ms doubling to 4 s: the task itself is retried only every task timeout or so.
        await sleep(jittered(Math.min(4_000, 500 * 2 ** Math.min(attempt, 3))));
        continue;
      }
      failingSince = undefined;
      const overloaded = temporalOverload(error)?.scope === "session";
      if (!overloaded && !unprocessedUpdate(error)) throw error;
      const now = Date.now();
      const mark = await progress().catch(() => undefined);
      if (mark !== undefined && mark !== lastMark) {
        lastMark = mark;
        lastProgress = now;
      }
      if (now - lastProgress > wait.stallMs || now - started > wait.maxWaitMs) throw error;
      onRetry(overloaded ? "session-full" : "unprocessed-update");
      // Jittered backoff, 100 ms doubling to 1 s: waiting callers do not retry in lockstep.
      await sleep(jittered(Math.min(1_000, 100 * 2 ** Math.min(attempt, 4))));
    }
  }
}

/** A message as the workflow receives it, naming the agent and tenant the sender expects. */
function userMessage(text: string, messageId: string, owner: MessageOwner): UserMessage {
  return {
    messageId,
    text,
    ...(owner.agentId === undefined ? {} : { agentId: owner.agentId }),
    ...(owner.tenant === undefined ? {} : { tenant: owner.tenant }),
  };
}

const ownerOf = (options: StartSessionOptions): MessageOwner => ({
  agentId: options.template.id,
  ...(options.tenant === undefined ? {} : { tenant: options.tenant }),
});

/** Updates fail with a generic "Workflow Update failed"; callers need the validator's reason. */
async function unwrapped<T>(request: Promise<T>): Promise<T> {
  try {
    return await request;
  } catch (error) {
    if (error instanceof WorkflowUpdateFailedError && error.cause instanceof Error) {
      const type = error.cause instanceof ApplicationFailure ? error.cause.type : undefined;
      throw new SessionRequestError(error.cause.message, { cause: error, type: type ?? undefined });
    }
    throw error;
  }
}

/** A typed client for agent sessions: start, send, state, history, events, end. */
export class SessionClient {
  readonly client: Client;
  readonly taskQueue: string;
  private readonly roomWait: RoomWait;
  private readonly onRetry: (retry: { sessionId: string; reason: SessionRetryReason }) => void;

  constructor(
    client: Client,
    taskQueue: string,
    options: {
      roomWait?: RoomWait;
      /** Told each time a request is sent again (a benchmark counts them). */
      onRetry?: (retry: { sessionId: string; reason: SessionRetryReason }) => void;
    } = {},
  ) {
    this.client = client;
    this.taskQueue = taskQueue;
    this.roomWait = options.roomWait ?? DEFAULT_ROOM_WAIT;
    this.onRetry = options.onRetry ?? (() => undefined);
  }

  /**
   * A message request to a session, waiting for room in it (see RoomWait) and for a failing
   * workflow task to heal; sending again is safe because the refused request never reached the
   * workflow (and a message id counts once).
   */
  private inRoom<T>(sessionId: string, request: () => Promise<T>): Promise<T> {
    const progress = async (): Promise<number> =>
      (await this.handle(sessionId).describe()).historyLength;
    return unwrapped(
      withRoom(sessionId, this.roomWait, progress, request, (reason) => {
        this.onRetry({ sessionId, reason });
      }),
    );
  }

  handle(sessionId: string): WorkflowHandle {
    return this.client.workflow.getHandle(workflowIdFor(sessionId));
  }

  private startOptions(options: StartSessionOptions) {
    const version = templateVersion(options.template);
    const input: SessionInput = {
      sessionId: options.sessionId,
      template: options.template,
      templateVersion: version,
      tenant: tenantOf(options),
      ...(options.settings === undefined ? {} : { settings: options.settings }),
    };
    return {
      workflowId: workflowIdFor(options.sessionId),
      taskQueue: this.taskQueue,
      args: [input] as [SessionInput],
      typedSearchAttributes: [
        { key: agentIdKey, value: options.template.id },
        { key: sessionStatusKey, value: "idle" },
        { key: turnCountKey, value: 0 },
        { key: tenantIdKey, value: tenantOf(options) },
        { key: templateVersionKey, value: version },
      ],
      memo: { templateVersion: version },
      staticSummary: `${options.template.name} session · agent ${options.template.id}`,
      staticDetails: `Agent **${options.template.name}** (\`${options.template.id}\`), model ${options.template.llm.provider}:${options.template.llm.model}, tools: ${options.template.tools.join(", ") || "none"}.`,
    };
  }

  /** A start for update-with-start; each attempt needs its own (the SDK runs one once). */
  private startOperation(options: StartSessionOptions): WithStartWorkflowOperation<Workflow> {
    return new WithStartWorkflowOperation(SESSION_WORKFLOW_TYPE, {
      ...this.startOptions(options),
      workflowIdConflictPolicy: "USE_EXISTING",
    });
  }

  /** Starts a session (idempotent: an existing running session with this id is reused). */
  async start(options: StartSessionOptions): Promise<WorkflowHandle> {
    return this.client.workflow.start(SESSION_WORKFLOW_TYPE, {
      ...this.startOptions(options),
      workflowIdConflictPolicy: "USE_EXISTING",
    });
  }

  /** Sends a message and waits for the turn's result; starts the session if needed (update-with-start). */
  async sendWithStart(
    options: StartSessionOptions,
    text: string,
    messageId: string,
  ): Promise<TurnResult> {
    return this.inRoom(options.sessionId, () =>
      this.client.workflow.executeUpdateWithStart(sendMessageUpdate, {
        args: [userMessage(text, messageId, ownerOf(options))],
        startWorkflowOperation: this.startOperation(options),
      }),
    );
  }

  /**
   * Sends a message with update-with-start and returns once the session accepted it (its
   * validator ran, so a refusal throws here); the turn's result comes from `result()`.
   */
  async submit(
    options: StartSessionOptions,
    text: string,
    messageId: string,
  ): Promise<{ result(): Promise<TurnResult> }> {
    const handle = await this.inRoom(options.sessionId, () =>
      this.client.workflow.startUpdateWithStart(sendMessageUpdate, {
        args: [userMessage(text, messageId, ownerOf(options))],
        waitForStage: WorkflowUpdateStage.ACCEPTED,
        startWorkflowOperation: this.startOperation(options),
      }),
    );
    // A refused update comes back already completed with its failure, which the handle only
    // reveals through result(); the server keeps no record of it (polling answers NOT_FOUND). Ask
    // the server where the update stands (at once: it is past ACCEPTED) so a refusal throws here
    // and a caller never mistakes it for an accepted turn.
    const result = unwrapped(handle.result());
    result.catch(() => undefined);
    try {
      const { outcome } = await this.client.workflowService.pollWorkflowExecutionUpdate({
        namespace: this.client.options.namespace,
        updateRef: {
          workflowExecution: { workflowId: handle.workflowId, runId: handle.workflowRunId ?? null },
          updateId: handle.updateId,
        },
        identity: this.client.options.identity,
        waitPolicy: {
          lifecycleStage:
            proto.temporal.api.enums.v1.UpdateWorkflowExecutionLifecycleStage
              .UPDATE_WORKFLOW_EXECUTION_LIFECYCLE_STAGE_ACCEPTED,
        },
      });
      if (outcome?.failure != null) await result;
    } catch (error) {
      const code: number | undefined = isGrpcServiceError(error) ? error.code : undefined;
      if (code !== grpcNotFound) throw error;
      await result;
    }
    return { result: () => result };
  }

  /** Like `submit`, for a running session (never starts one). */
  async submitTo(
    sessionId: string,
    text: string,
    messageId: string,
  ): Promise<{ result(): Promise<TurnResult> }> {
    const handle = await this.inRoom(sessionId, () =>
      this.handle(sessionId).startUpdate(sendMessageUpdate, {
        args: [{ messageId, text }],
        waitForStage: WorkflowUpdateStage.ACCEPTED,
      }),
    );
    // Awaited now, so a caller that never asks for it (a viewer gone before reading) leaves no
    // unhandled rejection behind when the connection closes.
    const result = unwrapped(handle.result());
    result.catch(() => undefined);
    return { result: () => result };
  }

  /** Sends a message to a running session and waits for the turn's result. */
  async send(
    sessionId: string,
    text: string,
    messageId: string,
    owner: MessageOwner = {},
  ): Promise<TurnResult> {
    return this.inRoom(sessionId, () =>
      this.handle(sessionId).executeUpdate(sendMessageUpdate, {
        args: [userMessage(text, messageId, owner)],
      }),
    );
  }

  /** Sends a message without waiting (signal); the result shows in events and state. */
  async post(
    sessionId: string,
    text: string,
    messageId: string,
    owner: MessageOwner = {},
  ): Promise<void> {
    await this.handle(sessionId).signal(userMessageSignal, userMessage(text, messageId, owner));
  }

  /**
   * Stops a running turn (the one answering `messageId`, turn number `turn`, or whichever runs
   * now) and waits until it is recorded as cancelled. Idempotent; when nothing matched, the
   * answer says why (`cancelled: false`).
   */
  async cancelTurn(sessionId: string, request: CancelTurnRequest = {}): Promise<CancelTurnResult> {
    return this.inRoom(sessionId, () =>
      this.handle(sessionId).executeUpdate(cancelTurnUpdate, { args: [request] }),
    );
  }

  /**
   * A person's answer to a tool call waiting for approval. Fails with a `SessionRequestError` of
   * type `UnknownApproval` or `ApprovalAlreadyDecided` (the first of two racing answers wins).
   */
  async decideApproval(
    sessionId: string,
    request: DecideApprovalRequest,
  ): Promise<DecideApprovalResult> {
    return this.inRoom(sessionId, () =>
      this.handle(sessionId).executeUpdate(decideApprovalUpdate, { args: [request] }),
    );
  }

  /** The tool calls waiting for approval, and the latest decided ones. */
  async approvals(sessionId: string): Promise<ApprovalsView> {
    return this.handle(sessionId).query(approvalsQuery);
  }

  async state(sessionId: string): Promise<SessionView> {
    return this.handle(sessionId).query(stateQuery);
  }

  /**
   * A turn's result with the session-wide facts its reply leaves to the `state` query
   * (`STATE_ONLY_FIELDS`: unavailable tools, template version, summarized turns) filled in, for a
   * caller that shows the whole state. The reply's own fields win (they are the state as the turn
   * ended). A query that fails leaves the result as it came: the answer is never lost to it.
   */
  async withSessionFacts(sessionId: string, result: TurnResult): Promise<TurnResult> {
    let view: SessionView;
    try {
      view = await this.state(sessionId);
    } catch {
      return result;
    }
    const facts = Object.fromEntries(
      STATE_ONLY_FIELDS.flatMap((field) =>
        view[field] === undefined ? [] : [[field, view[field]]],
      ),
    ) as Partial<SessionView>;
    return { ...result, state: { ...facts, ...result.state } };
  }

  async history(sessionId: string): Promise<SessionMessage[]> {
    return this.handle(sessionId).query(historyQuery);
  }

  async events(sessionId: string, after: number): Promise<{ events: LoggedEvent[]; next: number }> {
    return this.handle(sessionId).query(eventsQuery, { after });
  }

  /**
   * Asks the session to end once the messages it accepted are answered, then waits up to
   * `waitMs` for its workflow to close. `ended` is true only when the workflow has closed (its
   * final state); otherwise the session is still ending and `view.pendingMessages` says how many
   * messages it answers first.
   */
  async end(
    sessionId: string,
    reason?: string,
    options: { waitMs?: number } = {},
  ): Promise<EndOutcome> {
    const handle = this.handle(sessionId);
    await handle.signal(endSessionSignal, reason === undefined ? {} : { reason });
    const deadline = AbortSignal.timeout(options.waitMs ?? DEFAULT_END_WAIT_MS);
    try {
      const result = await this.client.withAbortSignal(
        deadline,
        () => handle.result() as Promise<SessionResult>,
      );
      return { ended: true, view: result.state };
    } catch (error) {
      if (!deadline.aborted) throw error;
    }
    return { ended: false, view: await this.state(sessionId) };
  }

  /**
   * Who owns a session and whether it runs, from its search attributes; undefined when no
   * session has this id. A session started before tenants belongs to the default tenant.
   */
  async owner(
    sessionId: string,
  ): Promise<{ tenant: string; agentId: string | undefined; running: boolean } | undefined> {
    try {
      const description = await this.handle(sessionId).describe();
      const attributes = description.typedSearchAttributes;
      return {
        tenant: attributes.get(tenantIdKey) ?? DEFAULT_TENANT,
        agentId: attributes.get(agentIdKey),
        running: description.status.name === "RUNNING",
      };
    } catch (error) {
      if (error instanceof WorkflowNotFoundError) return undefined;
      throw error;
    }
  }

  /** Whether a session with this id was ever started (running or closed). */
  async exists(sessionId: string): Promise<boolean> {
    try {
      await this.handle(sessionId).describe();
      return true;
    } catch (error) {
      if (error instanceof WorkflowNotFoundError) return false;
      throw error;
    }
  }

  /** Whether a session with this id is running. */
  async isRunning(sessionId: string): Promise<boolean> {
    try {
      const description = await this.handle(sessionId).describe();
      return description.status.name === "RUNNING";
    } catch (error) {
      if (error instanceof WorkflowNotFoundError) return false;
      throw error;
    }
  }
}
