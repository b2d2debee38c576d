import {
  WithStartWorkflowOperation,
  WorkflowUpdateStage,
  WorkflowNotFoundError,
  WorkflowUpdateFailedError,
  type Client,
  type WorkflowHandle,
} from "@temporalio/client";
import { setTimeout as sleep } from "node:timers/promises";
import type { AgentTemplate } from "../orchestration/index.ts";
import { temporalOverload } from "../temporal-overload.ts";
import {
  agentIdKey,
  endSessionSignal,
  eventsQuery,
  historyQuery,
  sendMessageUpdate,
  sessionStatusKey,
  stateQuery,
  turnCountKey,
  userMessageSignal,
  workflowIdFor,
  SESSION_WORKFLOW_TYPE,
  type LoggedEvent,
  type SessionInput,
  type SessionMessage,
  type SessionResult,
  type SessionSettings,
  type SessionView,
  type TurnResult,
} from "../session/index.ts";

export interface StartSessionOptions {
  template: AgentTemplate;
  sessionId: string;
  settings?: SessionSettings;
}

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
}

export const DEFAULT_ROOM_WAIT: RoomWait = { stallMs: 30_000, maxWaitMs: 10 * 60_000 };

async function withRoom<T>(
  wait: RoomWait,
  progress: () => Promise<number | undefined>,
  request: () => Promise<T>,
): Promise<T> {
  const started = Date.now();
  let lastProgress = started;
  let lastMark: number | undefined;
  for (let attempt = 0; ; attempt++) {
    try {
      return await request();
    } catch (error) {
      if (temporalOverload(error)?.scope !== "session") throw error;
      const now = Date.now();
      const mark = await progress().catch(() => undefined);
      if (mark !== undefined && mark !== lastMark) {
        lastMark = mark;
        lastProgress = now;
      }
      if (now - lastProgress > wait.stallMs || now - started > wait.maxWaitMs) throw error;
      // Jittered backoff, 100 ms doubling to 1 s: waiting callers do not retry in lockstep.
      const backoff = Math.min(1_000, 100 * 2 ** Math.min(attempt, 4));
      await sleep(backoff / 2 + Math.random() * (backoff / 2));
    }
  }
}

/** Updates fail with a generic "Workflow Update failed"; callers need the validator's reason. */
async function unwrapped<T>(request: Promise<T>): Promise<T> {
  try {
    return await request;
  } catch (error) {
    if (error instanceof WorkflowUpdateFailedError && error.cause instanceof Error) {
      throw new SessionRequestError(error.cause.message, { cause: error });
    }
    throw error;
  }
}

/** A typed client for agent sessions: start, send, state, history, events, end. */
export class SessionClient {
  readonly client: Client;
  readonly taskQueue: string;
  private readonly roomWait: RoomWait;

  constructor(client: Client, taskQueue: string, options: { roomWait?: RoomWait } = {}) {
    this.client = client;
    this.taskQueue = taskQueue;
    this.roomWait = options.roomWait ?? DEFAULT_ROOM_WAIT;
  }

  /** A message request to a session, waiting for room in it (see RoomWait). */
  private inRoom<T>(sessionId: string, request: () => Promise<T>): Promise<T> {
    const progress = async (): Promise<number> =>
      (await this.handle(sessionId).describe()).historyLength;
    return unwrapped(withRoom(this.roomWait, progress, request));
  }

  handle(sessionId: string): WorkflowHandle {
    return this.client.workflow.getHandle(workflowIdFor(sessionId));
  }

  private startOptions(options: StartSessionOptions) {
    const input: SessionInput = {
      sessionId: options.sessionId,
      template: options.template,
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
      ],
      staticSummary: `${options.template.name} session · agent ${options.template.id}`,
      staticDetails: `Agent **${options.template.name}** (\`${options.template.id}\`), model ${options.template.llm.provider}:${options.template.llm.model}, tools: ${options.template.tools.join(", ") || "none"}.`,
    };
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
    const startWorkflowOperation = new WithStartWorkflowOperation(SESSION_WORKFLOW_TYPE, {
      ...this.startOptions(options),
      workflowIdConflictPolicy: "USE_EXISTING",
    });
    return this.inRoom(options.sessionId, () =>
      this.client.workflow.executeUpdateWithStart(sendMessageUpdate, {
        args: [{ messageId, text }],
        startWorkflowOperation,
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
    const startWorkflowOperation = new WithStartWorkflowOperation(SESSION_WORKFLOW_TYPE, {
      ...this.startOptions(options),
      workflowIdConflictPolicy: "USE_EXISTING",
    });
    const handle = await this.inRoom(options.sessionId, () =>
      this.client.workflow.startUpdateWithStart(sendMessageUpdate, {
        args: [{ messageId, text }],
        waitForStage: WorkflowUpdateStage.ACCEPTED,
        startWorkflowOperation,
      }),
    );
    return { result: () => unwrapped(handle.result()) };
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
    return { result: () => unwrapped(handle.result()) };
  }

  /** Sends a message to a running session and waits for the turn's result. */
  async send(sessionId: string, text: string, messageId: string): Promise<TurnResult> {
    return this.inRoom(sessionId, () =>
      this.handle(sessionId).executeUpdate(sendMessageUpdate, { args: [{ messageId, text }] }),
    );
  }

  /** Sends a message without waiting (signal); the result shows in events and state. */
  async post(sessionId: string, text: string, messageId: string): Promise<void> {
    await this.handle(sessionId).signal(userMessageSignal, { messageId, text });
  }

  async state(sessionId: string): Promise<SessionView> {
    return this.handle(sessionId).query(stateQuery);
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
