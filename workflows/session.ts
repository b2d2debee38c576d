import type { CancellationScope } from "@temporalio/workflow";
import type { Experimental_Steering as Steering } from "ai";
import {
  createOrchestrator,
  turnNote,
  type OrchestrationEvent,
  type OrchestrationState,
  type Orchestrator,
  type ReportedTokenUsage,
} from "../src/orchestration/index.ts";
import type { SessionEvent, SessionInput, SessionView } from "../src/session/session-types.ts";
import { toolCatalogueEntries } from "../src/tools/index.ts";
import type { PluginToolDefinition } from "../activities/tool-availability.ts";
import { activeStepOf } from "./active-step.ts";
import { EventLog } from "./event-log.ts";
import { SessionStream } from "./session-stream.ts";
import { restoreState, type SessionState } from "./session-state.ts";
import { pendingApproval } from "./tool-approval.ts";

/**
 * The one owner of a session's state: the plain-data `state`, the orchestrator that decides on
 * it, the event log and the live stream. Concern modules receive the session and change its
 * state here; every event goes through `emit`, which keeps the log, the stream and the
 * observers (visibility) in step.
 */
export class Session {
  /** Replaced only by a template upgrade, between turns (template-upgrade.ts). */
  input: SessionInput;
  /** Rebuilt when a turn learns the worker's plug-in tools, so their categories match wildcards. */
  orchestrator: Orchestrator;
  readonly log: EventLog;
  /** The live stream; it keeps the items of the last two turns for subscribers that resume. */
  readonly stream: SessionStream;
  readonly state: SessionState;
  /** The scope the running turn's model and tool activities run in; `cancelTurn` cancels it. */
  turnScope: CancellationScope | undefined;
  /** The running turn's steering (`session.arrivalPolicy: "steer"`): arrivals join the turn. */
  turnSteering: Steering | undefined;
  private readonly observers: ((event: SessionEvent) => void)[] = [];

  constructor(input: SessionInput) {
    this.input = input;
    this.orchestrator = createOrchestrator(input.template, toolCatalogueEntries);
    const carried = input.carried;
    this.log = new EventLog(carried?.events, carried?.nextEventOffset);
    // Rejections during construction (signals that came with the first task) wait for the stream.
    const early: string[] = [];
    const stream = { ready: false };
    this.stream = new SessionStream(carried?.stream, (reason) => {
      if (stream.ready) this.emit({ type: "message_rejected", reason });
      else early.push(reason);
    });
    this.state = restoreState(
      carried,
      () => this.orchestrator.initialState(),
      this.stream.firstOffset,
    );
    stream.ready = true;
    for (const reason of early) this.emit({ type: "message_rejected", reason });
  }

  get template(): SessionInput["template"] {
    return this.input.template;
  }

  /** Told every event as it is emitted (the Web UI's details and search attributes follow them). */
  observe(observer: (event: SessionEvent) => void): void {
    this.observers.push(observer);
  }

  emit(event: SessionEvent): void {
    const note = event.type === "orchestration" ? turnNote(event.event) : undefined;
    if (note !== undefined) this.state.turnNotes.push(note);
    this.log.append(event);
    this.stream.publishEvent(event);
    if (
      event.type === "orchestration" &&
      event.event.type === "step_entered" &&
      event.event.step !== this.template.orchestration.defaultStep
    ) {
      this.state.lastStep = event.event.step;
    }
    for (const observer of this.observers) observer(event);
  }

  /** Takes an orchestrator decision: its state, then its events in order. */
  apply(decision: { state: OrchestrationState; events: readonly OrchestrationEvent[] }): void {
    this.state.orchestration = decision.state;
    for (const event of decision.events) this.emit({ type: "orchestration", event });
  }

  /** Adds one model call's reported usage to the session totals. */
  addUsage(usage: ReportedTokenUsage): void {
    const { state } = this;
    state.orchestration = this.orchestrator.onTokenUsage(state.orchestration, usage);
    this.emit({
      type: "token_usage",
      usage: {
        inputTokens: usage.inputTokens ?? 0,
        outputTokens: usage.outputTokens ?? 0,
        totalTokens: usage.totalTokens ?? 0,
      },
      total: state.orchestration.cumulativeTokenUsage,
    });
  }

  /**
   * The orchestrator is pure and keeps no state, so swapping it for one whose catalogue knows the
   * plug-ins' categories changes decisions only where those categories matter (wildcards).
   */
  usePluginTools(pluginTools: PluginToolDefinition[]): void {
    this.state.pluginTools = pluginTools;
    this.orchestrator = createOrchestrator(this.template, [
      ...toolCatalogueEntries,
      ...pluginTools.map(({ name, category }) => ({ name, category })),
    ]);
  }

  view(): SessionView {
    const { state } = this;
    const orchestration = state.orchestration;
    const awaitingApproval = pendingApproval(state);
    return {
      sessionId: this.input.sessionId,
      agentId: this.template.id,
      status: state.status,
      activeStep: orchestration.activeStep ?? null,
      sequenceIndex: orchestration.sequenceIndex,
      sequenceLength: activeStepOf(this.template, orchestration)?.sequence?.length ?? 0,
      allowedTools: this.orchestrator.allowedTools(orchestration),
      ...(orchestration.unavailableTools === undefined
        ? {}
        : { unavailableTools: orchestration.unavailableTools }),
      recentlyUsedTools: orchestration.recentlyUsedTools,
      toolCount: orchestration.toolCount,
      turn: orchestration.turn,
      cumulativeTokenUsage: orchestration.cumulativeTokenUsage,
      pendingMessages: state.pending.length,
      run: state.run,
      summarizedTurns: state.summarizedTurns,
      ...(state.lastStep === undefined ? {} : { lastStep: state.lastStep }),
      ...(state.lastFailure === undefined ? {} : { lastFailure: state.lastFailure }),
      ...(state.endReason === undefined ? {} : { endReason: state.endReason }),
      ...(this.input.templateVersion === undefined
        ? {}
        : { templateVersion: this.input.templateVersion }),
      ...(awaitingApproval === undefined ? {} : { awaitingApproval }),
    };
  }
}
