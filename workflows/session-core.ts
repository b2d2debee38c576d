import type { ModelMessage } from "ai";
import {
  createOrchestrator,
  DEFAULT_RECENT_TURNS,
  type AgentTemplate,
  type OrchestrationEvent,
  type OrchestrationState,
  type Orchestrator,
  turnNote,
} from "../src/orchestration/index.ts";
import { modelIdOrError } from "../src/llm/model-id.ts";
import { REMEMBERED_MESSAGE_IDS, REMEMBERED_RESULTS } from "../src/session/constants.ts";
import type {
  CarriedSession,
  SessionEvent,
  SessionInput,
  SessionMessage,
  SessionStatus,
  SessionView,
  ToolCallRecord,
  TurnFailure,
  TurnResult,
  UserMessage,
} from "../src/session/session-types.ts";
import { toolCatalogueEntries } from "../src/tools/index.ts";
import { patched } from "@temporalio/workflow";
import type { PluginToolDefinition } from "../activities/tool-availability.ts";
import { EventLog } from "./event-log.ts";
import { compactionCut } from "./history-window.ts";
import { summarizeHistory } from "./summarize-history.ts";
import { SessionStream } from "./session-stream.ts";
import { runModelLoop } from "./run-turn.ts";
import { reportedTools } from "./tool-availability.ts";
import type { TurnContext } from "./turn-context.ts";

/**
 * The session's state and its one operation, a turn. Pure bookkeeping plus the model loop:
 * handlers and the main loop in agent-session.ts decide when turns run.
 */
export class SessionCore {
  /** Rebuilt when a turn learns the worker's plug-in tools, so their categories match wildcards. */
  orchestrator: Orchestrator;
  /** The plug-in tools the last availability check reported: offered to the model like built-ins. */
  private pluginTools: PluginToolDefinition[] = [];
  /** Replaced only by a template upgrade, between turns (template-upgrade.ts). */
  input: SessionInput;
  readonly log: EventLog;
  /** The live stream; it keeps the items of the last two turns for subscribers that resume. */
  readonly stream: SessionStream;
  private lastTurnStart: number;
  state: OrchestrationState;
  /** The turns re-sent to the model: the recent window (older turns are in `summary`). */
  messages: SessionMessage[];
  summary: string | undefined;
  summarizedTurns: number;
  pending: UserMessage[];
  status: SessionStatus;
  endReason: string | undefined;
  /** The last step entered other than the default step, for the Web UI and its filters. */
  lastStep: string | undefined;
  lastFailure: TurnFailure | undefined;
  /** Told every event as it is emitted (the Web UI's details and search attributes follow them). */
  observer: ((event: SessionEvent) => void) | undefined;
  readonly run: number;
  private readonly processedIds: Set<string>;
  /** Ids whose `sendMessage` caller is waiting: they must be answered before continue-as-new. */
  readonly awaitedIds = new Set<string>();
  private readonly results: Map<string, TurnResult>;
  /** What this turn's model calls must tell the user (steps skipped or released, and why). */
  private turnNotes: string[] = [];

  constructor(input: SessionInput) {
    this.input = input;
    this.orchestrator = createOrchestrator(input.template, toolCatalogueEntries);
    const carried = input.carried;
    this.state = carried?.state ?? this.orchestrator.initialState();
    this.messages = carried?.messages ?? [];
    this.summary = carried?.summary;
    this.summarizedTurns = carried?.summarizedTurns ?? 0;
    this.pending = carried?.pending ?? [];
    this.processedIds = new Set(carried?.processedIds ?? []);
    this.results = new Map((carried?.results ?? []).map((result) => [result.messageId, result]));
    this.log = new EventLog(carried?.events, carried?.nextEventOffset);
    // Rejections during construction (signals that came with the first task) wait for the stream.
    const early: string[] = [];
    const stream = { ready: false };
    this.stream = new SessionStream(carried?.stream, (reason) => {
      if (stream.ready) this.emit({ type: "message_rejected", reason });
      else early.push(reason);
    });
    stream.ready = true;
    for (const reason of early) this.emit({ type: "message_rejected", reason });
    this.lastTurnStart = this.stream.firstOffset;
    this.run = (carried?.run ?? 0) + 1;
    this.lastStep = carried?.lastStep;
    this.lastFailure = carried?.lastFailure;
    // A failure stays the session's status until the next turn starts, across runs too.
    this.status = this.lastFailure?.turn === this.state.turn ? "failed" : "idle";
  }

  /** Whether this id was accepted before (queued, running or answered). */
  isKnown(messageId: string): boolean {
    return (
      this.processedIds.has(messageId) ||
      this.pending.some((message) => message.messageId === messageId)
    );
  }

  /** Answered in this or an earlier run (its result may no longer be kept). */
  wasAnswered(messageId: string): boolean {
    return this.processedIds.has(messageId);
  }

  hasAwaitedPending(): boolean {
    return this.pending.some((message) => this.awaitedIds.has(message.messageId));
  }

  resultFor(messageId: string): TurnResult | undefined {
    return this.results.get(messageId);
  }

  /** Accepts a message once; a repeated id is ignored (the first one's result answers it). */
  enqueue(message: UserMessage): void {
    if (this.isKnown(message.messageId)) return;
    this.pending.push(message);
  }

  view(): SessionView {
    const state = this.state;
    const step = this.input.template.orchestration.steps.find(
      (candidate) => candidate.name === state.activeStep,
    );
    return {
      sessionId: this.input.sessionId,
      agentId: this.input.template.id,
      status: this.status,
      activeStep: state.activeStep ?? null,
      sequenceIndex: state.sequenceIndex,
      sequenceLength: step?.sequence?.length ?? 0,
      allowedTools: this.orchestrator.allowedTools(state),
      ...(state.unavailableTools === undefined ? {} : { unavailableTools: state.unavailableTools }),
      recentlyUsedTools: state.recentlyUsedTools,
      toolCount: state.toolCount,
      turn: state.turn,
      cumulativeTokenUsage: state.cumulativeTokenUsage,
      pendingMessages: this.pending.length,
      run: this.run,
      summarizedTurns: this.summarizedTurns,
      ...(this.lastStep === undefined ? {} : { lastStep: this.lastStep }),
      ...(this.lastFailure === undefined ? {} : { lastFailure: this.lastFailure }),
      ...(this.endReason === undefined ? {} : { endReason: this.endReason }),
      ...(this.input.templateVersion === undefined
        ? {}
        : { templateVersion: this.input.templateVersion }),
    };
  }

  emit(event: SessionEvent): void {
    const note = event.type === "orchestration" ? turnNote(event.event) : undefined;
    if (note !== undefined) this.turnNotes.push(note);
    this.log.append(event);
    this.stream.publishEvent(event);
    if (
      event.type === "orchestration" &&
      event.event.type === "step_entered" &&
      event.event.step !== this.input.template.orchestration.defaultStep
    ) {
      this.lastStep = event.event.step;
    }
    this.observer?.(event);
  }

  /**
   * The orchestrator's decision on a new message. A template that reached the workflow without
   * the loader's checks (a workflow started by hand) can make it throw: that fails this turn,
   * with the reason, instead of every workflow task.
   */
  private decide(text: string): {
    state: OrchestrationState;
    events: readonly OrchestrationEvent[];
    error?: string;
  } {
    try {
      return this.orchestrator.onUserMessage(this.state, text);
    } catch (error) {
      const reason = error instanceof Error ? error.message : String(error);
      return {
        state: { ...this.state, turn: this.state.turn + 1 },
        events: [],
        error: `the session's template cannot decide on this message: ${reason}; start sessions with a template the loader accepts (agentdock-temporal agents checks them)`,
      };
    }
  }

  /**
   * The orchestrator is pure and keeps no state, so swapping it for one whose catalogue knows the
   * plug-ins' categories changes decisions only where those categories matter (wildcards).
   */
  private usePluginTools(pluginTools: PluginToolDefinition[]): void {
    this.pluginTools = pluginTools;
    this.orchestrator = createOrchestrator(this.input.template, [
      ...toolCatalogueEntries,
      ...pluginTools.map(({ name, category }) => ({ name, category })),
    ]);
  }

  /** Runs the next pending message as one turn. */
  async runNextTurn(): Promise<TurnResult | undefined> {
    const message = this.pending[0];
    if (message === undefined) return undefined;
    this.status = "running";
    this.turnNotes = [];
    // Before the step is chosen: a step needing a tool this worker cannot run is not entered.
    const reported = await reportedTools(this.input.template.tools);
    if (reported?.pluginTools !== undefined) this.usePluginTools(reported.pluginTools);
    const availability =
      reported === undefined
        ? undefined
        : this.orchestrator.onToolAvailability(this.state, reported.unavailable);
    if (availability !== undefined) this.state = availability.state;
    this.stream.dropBefore(this.lastTurnStart);
    this.lastTurnStart = this.stream.offset;
    const decision = this.decide(message.text);
    this.state = decision.state;
    this.emit({
      type: "turn_started",
      messageId: message.messageId,
      turn: this.state.turn,
      text: message.text,
    });
    for (const event of [...(availability?.events ?? []), ...decision.events])
      this.emit({ type: "orchestration", event });
    this.messages.push({ role: "user", content: message.text });

    const toolCalls: ToolCallRecord[] = [];
    const model = modelIdOrError(this.input.template.llm);
    const failure = decision.error ?? ("error" in model ? model.error : undefined);
    const outcome =
      failure !== undefined || "error" in model
        ? { text: "", responseMessages: [], error: failure }
        : await runModelLoop(
            this.orchestrator,
            this.turnContext(toolCalls, model.modelId),
            this.messages as ModelMessage[],
            this.pluginTools,
          );
    this.messages.push(...(outcome.responseMessages as SessionMessage[]));

    this.pending.shift();
    this.remember(message.messageId);
    if (outcome.error !== undefined) {
      // The workflow's Date is the time of the workflow task, the same on every replay.
      // eslint-disable-next-line no-restricted-syntax
      const at = new Date().toISOString();
      this.lastFailure = { turn: this.state.turn, at, error: outcome.error };
    }
    const result: TurnResult = {
      messageId: message.messageId,
      turn: this.state.turn,
      text: outcome.text,
      toolCalls,
      ...(outcome.error === undefined ? {} : { error: outcome.error }),
      state: this.view(),
    };
    this.results.set(message.messageId, result);
    if (this.results.size > REMEMBERED_RESULTS) {
      const oldest = this.results.keys().next().value;
      if (oldest !== undefined) this.results.delete(oldest);
    }
    this.emit({
      type: "turn_finished",
      messageId: message.messageId,
      turn: result.turn,
      text: result.text,
      ...(outcome.error === undefined ? {} : { error: outcome.error }),
    });
    // The reply is out (the update answers from `results`); the summary is written after it.
    await this.compactHistory();
    this.status = outcome.error === undefined ? "idle" : "failed";
    return result;
  }

  /**
   * Keeps what every model call re-sends bounded: once the conversation holds enough turns
   * beyond the template's window, the oldest ones are folded into the running summary and
   * dropped from the messages (and from what continue-as-new carries). Sessions started before
   * this existed replay unchanged (patch "bounded-history").
   */
  private async compactHistory(): Promise<void> {
    // Snapshots taken before this setting existed lack it (replay proved it): use the defaults.
    const settings = this.input.template.session.history as
      AgentTemplate["session"]["history"] | undefined;
    const { recentTurns, summarize } = settings ?? {
      recentTurns: DEFAULT_RECENT_TURNS,
      summarize: true,
    };
    const cut = compactionCut(this.messages, recentTurns);
    if (cut === undefined || !patched("bounded-history")) return;
    const leaving = this.messages.slice(0, cut);
    const turns = leaving.filter((message) => message.role === "user").length;
    if (summarize) {
      const model = modelIdOrError(this.input.template.llm);
      const outcome =
        "error" in model ? model : await summarizeHistory(model.modelId, this.summary, leaving);
      if ("error" in outcome) {
        this.emit({ type: "history_summary_failed", error: outcome.error });
        return;
      }
      this.summary = outcome.summary;
    }
    this.messages = this.messages.slice(cut);
    this.summarizedTurns += turns;
    this.emit({ type: "history_summarized", turns, summaryChars: this.summary?.length ?? 0 });
  }

  /** The conversation as the `history` query shows it: the summary first, then the window. */
  historyView(): SessionMessage[] {
    return this.summary === undefined
      ? this.messages
      : [
          {
            role: "system",
            content: `Summary of the ${this.summarizedTurns} earlier turns: ${this.summary}`,
          },
          ...this.messages,
        ];
  }

  private remember(messageId: string): void {
    this.processedIds.add(messageId);
    if (this.processedIds.size > REMEMBERED_MESSAGE_IDS) {
      const oldest = this.processedIds.values().next().value;
      if (oldest !== undefined) this.processedIds.delete(oldest);
    }
  }

  private turnContext(toolCalls: ToolCallRecord[], modelId: string): TurnContext {
    return {
      sessionId: this.input.sessionId,
      modelId,
      state: () => this.state,
      summary: () => this.summary,
      applyToolUsed: (toolName) => {
        const decision = this.orchestrator.onToolUsed(this.state, toolName);
        this.state = decision.state;
        for (const event of decision.events) this.emit({ type: "orchestration", event });
      },
      applyToolFailed: (toolName, error) => {
        const decision = this.orchestrator.onToolFailed(this.state, toolName, error);
        this.state = decision.state;
        for (const event of decision.events) this.emit({ type: "orchestration", event });
      },
      notes: () => this.turnNotes,
      recordToolCall: (record) => toolCalls.push(record),
      hasToolCall: (toolCallId) => toolCalls.some((call) => call.toolCallId === toolCallId),
      applyUsage: (usage) => {
        this.state = this.orchestrator.onTokenUsage(this.state, usage);
        this.emit({
          type: "token_usage",
          usage: {
            inputTokens: usage.inputTokens ?? 0,
            outputTokens: usage.outputTokens ?? 0,
            totalTokens: usage.totalTokens ?? 0,
          },
          total: this.state.cumulativeTokenUsage,
        });
      },
      emit: (event) => {
        this.emit(event);
      },
      publish: (event) => {
        this.stream.publishEvent(event);
      },
      openModelTopic: () => this.stream.openModelTopic(),
    };
  }

  /** Everything the next run needs. */
  carry(): CarriedSession {
    const { events, nextEventOffset } = this.log.snapshot();
    this.stream.dropBefore(this.lastTurnStart);
    return {
      state: this.state,
      messages: this.messages,
      ...(this.summary === undefined ? {} : { summary: this.summary }),
      summarizedTurns: this.summarizedTurns,
      pending: this.pending,
      processedIds: [...this.processedIds],
      results: [...this.results.values()],
      events,
      nextEventOffset,
      run: this.run,
      stream: this.stream.getState(),
      ...(this.lastStep === undefined ? {} : { lastStep: this.lastStep }),
      ...(this.lastFailure === undefined ? {} : { lastFailure: this.lastFailure }),
    };
  }
}
