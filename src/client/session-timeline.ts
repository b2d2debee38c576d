import type { OrchestrationEvent, TokenUsage } from "../orchestration/index.ts";
import type { LoggedEvent, SessionMessage } from "../session/index.ts";
import type { ToolActivityRun } from "./tool-activity-runs.ts";

/** A tool the model was not offered at a model call, and why. */
export interface WithheldTool {
  tool: string;
  reason: string;
}

/** One entry of a turn's timeline, in the order it happened. */
export type TimelineEntry =
  | { kind: "orchestration"; offset: number; event: OrchestrationEvent }
  | {
      kind: "model_call";
      offset: number;
      /** The model step within the turn (1, 2, …). */
      step: number;
      activeStep: string | null;
      offeredTools: string[];
      withheldTools: WithheldTool[];
      /** Set once the call returned. */
      usage?: TokenUsage;
      totalTokens?: number;
    }
  | {
      kind: "tool_call";
      offset: number;
      toolCallId: string;
      toolName: string;
      status: "running" | "ok" | "error" | "refused";
      input?: unknown;
      output?: unknown;
      /** The refusal reason or error the model received. */
      detail?: string;
      durationMs?: number;
      attempts?: number;
    }
  /** A session event this version does not know: shown as it is. */
  | { kind: "event"; offset: number; type: string; event: Record<string, unknown> };

export interface TimelineTurn {
  turn: number;
  messageId: string;
  text: string;
  status: "running" | "finished" | "failed" | "cancelled";
  reply?: string;
  error?: string;
  entries: TimelineEntry[];
}

export interface SessionTimeline {
  sessionId: string;
  turns: TimelineTurn[];
  /** Session-level events outside any turn (continue-as-new, summaries, rejections, the end). */
  events: { offset: number; type: string; event: Record<string, unknown> }[];
}

export interface TimelineSources {
  sessionId: string;
  /** The session's event log (the `events` query), oldest first. */
  events: readonly LoggedEvent[];
  /** The conversation (the `history` query): tool inputs and outputs of earlier runs. */
  messages: readonly SessionMessage[];
  /**
   * Every agent tool's decision (allowed or not, and why) at a model call, given the active step,
   * its sequence progress and the tools the worker reported unavailable (the template's policy).
   */
  toolDecisions: (activeStep: string | null, context: ToolContext) => ToolDecisionView[];
  /** Tool activities of the current run, by tool call id: durations, inputs and outputs. */
  toolRuns: ReadonlyMap<string, ToolActivityRun>;
}

/** Where a step's sequence stood at a model call, as the event log tells it. */
export interface SequenceProgress {
  /** Positions done. */
  index: number;
  completed: boolean;
}

/** What the event log tells about the moment of a model call. */
export interface ToolContext extends SequenceProgress {
  /** Tools the worker reported it cannot run, with the reason. */
  unavailable: Readonly<Record<string, string>>;
}

/** Whether the policy allows a tool, and why. */
export interface ToolDecisionView {
  tool: string;
  allowed: boolean;
  reason: string;
}

/** Not withheld by the policy, yet not offered: the session held it back for its failures. */
const heldBack =
  "not offered at this call: the session held it back (a tool that keeps failing waits for the next message)";

type ContentPart = Record<string, unknown> & { type?: unknown };

/** Tool calls' inputs and results as the conversation keeps them, by tool call id. */
function toolCallsInMessages(messages: readonly SessionMessage[]): {
  inputs: Map<string, unknown>;
  outputs: Map<string, unknown>;
} {
  const inputs = new Map<string, unknown>();
  const outputs = new Map<string, unknown>();
  for (const message of messages) {
    const content = message["content"];
    if (!Array.isArray(content)) continue;
    for (const part of content as ContentPart[]) {
      const id = part["toolCallId"];
      if (typeof id !== "string") continue;
      if (part.type === "tool-call") inputs.set(id, part["input"]);
      if (part.type === "tool-result") outputs.set(id, unwrapOutput(part["output"]));
    }
  }
  return { inputs, outputs };
}

/** `{type: "json", value}` as the model message keeps a tool result: the value. */
function unwrapOutput(output: unknown): unknown {
  if (typeof output === "object" && output !== null && "type" in output && "value" in output) {
    return (output as { value: unknown }).value;
  }
  return output;
}

/**
 * The console's timeline of a session, per turn: each step entered and why, sequence progress,
 * every model call with the tools offered and withheld and its tokens, every tool call with
 * input, output, duration and outcome. Pure: the route reads the sources, this shapes them.
 */
export function buildTimeline(sources: TimelineSources): SessionTimeline {
  const fromMessages = toolCallsInMessages(sources.messages);
  const timeline: SessionTimeline = { sessionId: sources.sessionId, turns: [], events: [] };
  let turn: TimelineTurn | undefined;
  let lastModelCall: Extract<TimelineEntry, { kind: "model_call" }> | undefined;
  const toolCalls = new Map<string, Extract<TimelineEntry, { kind: "tool_call" }>>();
  // Each step's sequence progress, from the orchestration events so far.
  const progress = new Map<string, SequenceProgress>();
  const unavailable: Record<string, string> = {};

  const toolEntry = (
    offset: number,
    toolCallId: string,
    toolName: string,
  ): Extract<TimelineEntry, { kind: "tool_call" }> => {
    const existing = toolCalls.get(toolCallId);
    if (existing !== undefined) return existing;
    const run = sources.toolRuns.get(toolCallId);
    const input = run?.input ?? fromMessages.inputs.get(toolCallId);
    const entry: Extract<TimelineEntry, { kind: "tool_call" }> = {
      kind: "tool_call",
      offset,
      toolCallId,
      toolName,
      status: "running",
      ...(input === undefined ? {} : { input }),
      ...(run?.attempts === undefined ? {} : { attempts: run.attempts }),
    };
    toolCalls.set(toolCallId, entry);
    turn?.entries.push(entry);
    return entry;
  };

  for (const { offset, event } of sources.events) {
    switch (event.type) {
      case "turn_started":
        turn = {
          turn: event.turn,
          messageId: event.messageId,
          text: event.text,
          status: "running",
          entries: [],
        };
        lastModelCall = undefined;
        timeline.turns.push(turn);
        break;
      case "turn_finished": {
        const finished = timeline.turns.find(
          (candidate) => candidate.messageId === event.messageId,
        );
        if (finished !== undefined) {
          finished.status =
            event.cancelled === true
              ? "cancelled"
              : event.error === undefined
                ? "finished"
                : "failed";
          finished.reply = event.text;
          if (event.error !== undefined) finished.error = event.error;
        }
        if (finished === turn) turn = undefined;
        break;
      }
      case "orchestration": {
        const change = event.event;
        if (
          change.type === "step_entered" ||
          change.type === "sequence_reset" ||
          change.type === "sequence_restarted"
        ) {
          progress.set(change.step, { index: 0, completed: false });
        } else if (change.type === "sequence_advanced") {
          progress.set(change.step, { index: change.position, completed: false });
        } else if (change.type === "tool_unavailable") {
          unavailable[change.tool] = change.reason;
        } else if (change.type === "tool_available") {
          // eslint-disable-next-line @typescript-eslint/no-dynamic-delete
          delete unavailable[change.tool];
        } else if (change.type === "sequence_completed") {
          const before = progress.get(change.step);
          progress.set(change.step, { index: before?.index ?? 0, completed: true });
        }
        turn?.entries.push({ kind: "orchestration", offset, event: change });
        break;
      }
      case "model_step":
        lastModelCall = {
          kind: "model_call",
          offset,
          step: event.step,
          activeStep: event.activeStep,
          offeredTools: event.offeredTools,
          withheldTools: sources
            .toolDecisions(event.activeStep, {
              ...((event.activeStep === null ? undefined : progress.get(event.activeStep)) ?? {
                index: 0,
                completed: false,
              }),
              unavailable: { ...unavailable },
            })
            .filter(({ tool }) => !event.offeredTools.includes(tool))
            .map(({ tool, allowed, reason }) => ({ tool, reason: allowed ? heldBack : reason })),
        };
        turn?.entries.push(lastModelCall);
        break;
      case "token_usage":
        if (lastModelCall !== undefined && lastModelCall.usage === undefined) {
          lastModelCall.usage = event.usage;
          lastModelCall.totalTokens = event.total.totalTokens;
        }
        break;
      case "tool_started":
        toolEntry(offset, event.toolCallId, event.toolName);
        break;
      case "tool_finished": {
        const started = toolCalls.has(event.toolCallId);
        const entry = toolEntry(offset, event.toolCallId, event.toolName);
        entry.status = event.status;
        if (event.detail !== undefined) entry.detail = event.detail;
        // A call of a tool the model was not offered never started: the AI SDK refused it
        // before it could run (the log says "error"). It is a refusal, and the reason is why
        // the tool was withheld at that model call.
        const withheldAs = lastModelCall?.withheldTools.find(({ tool }) => tool === event.toolName);
        if (
          event.status === "error" &&
          !started &&
          lastModelCall !== undefined &&
          !lastModelCall.offeredTools.includes(event.toolName)
        ) {
          entry.status = "refused";
          entry.detail = `not offered at model call ${lastModelCall.step}${
            withheldAs === undefined ? "" : `: ${withheldAs.reason}`
          } (the model was told: ${event.detail ?? "unavailable tool"})`;
        }
        const run = sources.toolRuns.get(event.toolCallId);
        if (run?.durationMs !== undefined) entry.durationMs = run.durationMs;
        const output = run?.output ?? fromMessages.outputs.get(event.toolCallId);
        if (event.status === "ok" && output !== undefined) entry.output = output;
        break;
      }
      default: {
        const generic = { offset, type: event.type, event: { ...event } };
        if (turn === undefined) timeline.events.push(generic);
        else turn.entries.push({ kind: "event", ...generic });
      }
    }
  }
  return timeline;
}
