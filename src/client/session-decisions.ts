import {
  carryStateToTemplate,
  createOrchestrator,
  type AgentTemplate,
  type OrchestrationEvent,
  type OrchestrationState,
  type Orchestrator,
} from "../orchestration/index.ts";
import { toolCatalogueEntries } from "../tools/index.ts";
import type { RecordedTurn, SessionRecording } from "./session-recording.ts";

/** One model call of a turn: the tools the orchestrator offers, and those the history recorded. */
export interface ModelCallDecision {
  offeredTools: string[];
  /** What the recorded call was offered (the same under the session's own template). */
  recordedTools: string[];
}

/** The decisions of one message's turn. */
export interface MessageDecision {
  turn: number;
  messageId: string;
  text: string;
  /** The active step once the message was decided on (before its tools ran); null: none. */
  activeStep: string | null;
  modelCalls: ModelCallDecision[];
  /** The orchestration state at the end of the turn. */
  stateAfter: OrchestrationState;
  /** The last step entered other than the default step, as of the end of the turn. */
  lastStep: string | undefined;
  /** The template the turn ran under. */
  template: AgentTemplate;
}

export interface RecomputeOptions {
  /**
   * Decide every message under this template instead of the ones the session ran (its start
   * template and upgrades): the question `replay --template` asks.
   */
  template?: AgentTemplate;
}

/** The orchestrator a turn uses: the catalogue knows the plug-ins the worker reported. */
function orchestratorFor(
  template: AgentTemplate,
  pluginTools: readonly { name: string; category?: string }[],
): Orchestrator {
  return createOrchestrator(template, [...toolCatalogueEntries, ...pluginTools]);
}

/**
 * A session's decisions recomputed from its recorded inputs with the pure orchestrator, in the
 * order the workflow applies them (spec §4–§6, workflows/turn.ts): the worker's report of
 * unavailable tools, the user message, then before each model call the offered tools, after it
 * the usage, and each tool's outcome as it came. The same inputs give the same decisions, so under
 * the session's own template this reproduces what it did, and under another template it shows
 * what that template would have decided on the same conversation.
 */
export function recomputeDecisions(
  recording: SessionRecording,
  options: RecomputeOptions = {},
): MessageDecision[] {
  let template = options.template ?? recording.input.template;
  let pluginTools: readonly { name: string; category?: string }[] = [];
  let orchestrator = orchestratorFor(template, pluginTools);
  const carried = recording.input.carried;
  let state: OrchestrationState =
    carried === undefined
      ? orchestrator.initialState()
      : options.template === undefined
        ? carried.state
        : carryStateToTemplate(carried.state, template).state;
  let lastStep = carried?.lastStep;
  const decisions: MessageDecision[] = [];

  const note = (events: readonly OrchestrationEvent[]): void => {
    for (const event of events) {
      if (event.type === "step_entered" && event.step !== template.orchestration.defaultStep) {
        lastStep = event.step;
      }
    }
  };

  for (const entry of recording.entries) {
    if (entry.type === "upgrade") {
      if (options.template !== undefined) continue;
      template = entry.template;
      orchestrator = orchestratorFor(template, []);
      state = carryStateToTemplate(state, template).state;
      continue;
    }
    const turn: RecordedTurn = entry;
    const reported = turn.availability;
    if (reported?.pluginTools !== undefined) {
      pluginTools = reported.pluginTools;
      orchestrator = orchestratorFor(template, pluginTools);
    }
    if (reported !== undefined) {
      const availability = orchestrator.onToolAvailability(state, reported.unavailable);
      state = availability.state;
      note(availability.events);
    }
    try {
      const decision = orchestrator.onUserMessage(state, turn.text);
      state = decision.state;
      note(decision.events);
    } catch {
      // The workflow fails such a turn with the reason; the turn still counts.
      state = { ...state, turn: state.turn + 1 };
    }
    const activeStep = state.activeStep ?? null;
    const modelCalls: ModelCallDecision[] = [];
    for (const step of turn.steps) {
      if (step.type === "model_call") {
        modelCalls.push({
          offeredTools: orchestrator.allowedTools(state),
          recordedTools: step.offeredTools,
        });
        if (step.usage !== undefined) state = orchestrator.onTokenUsage(state, step.usage);
      } else if (step.type === "tool_ok") {
        const used = orchestrator.onToolUsed(state, step.tool);
        state = used.state;
        note(used.events);
      } else if (recording.failuresCount) {
        const failed = orchestrator.onToolFailed(state, step.tool, step.error);
        state = failed.state;
        note(failed.events);
      }
    }
    decisions.push({
      turn: turn.turn,
      messageId: turn.messageId,
      text: turn.text,
      activeStep,
      modelCalls,
      stateAfter: state,
      lastStep,
      template,
    });
  }
  return decisions;
}

/** Two tool lists as sets: the model sees the tools, not their order. */
export function sameTools(a: readonly string[], b: readonly string[]): boolean {
  const left = [...a].sort();
  const right = [...b].sort();
  return left.length === right.length && left.every((name, index) => name === right[index]);
}

/**
 * Where the recomputation under the session's own templates disagrees with what the history
 * recorded (offered tools of a model call), if anywhere: then the recording cannot be trusted to
 * recompute this session (a history the reader does not understand), and saying so beats a
 * wrong answer.
 */
export function recordingMismatch(
  decisions: readonly MessageDecision[],
): { turn: number; call: number; recomputed: string[]; recorded: string[] } | undefined {
  for (const decision of decisions) {
    for (const [index, call] of decision.modelCalls.entries()) {
      if (!sameTools(call.offeredTools, call.recordedTools)) {
        return {
          turn: decision.turn,
          call: index + 1,
          recomputed: call.offeredTools,
          recorded: call.recordedTools,
        };
      }
    }
  }
  return undefined;
}
