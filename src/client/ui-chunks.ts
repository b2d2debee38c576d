import type { UIMessageChunk } from "ai";
import type { LiveItem } from "./live-events.ts";
import type { TurnResult } from "../session/index.ts";

/** What the stream's `finish` chunk carries as message metadata. */
export interface TurnMetadata {
  sessionId: string;
  turn: number;
  activeStep: string | null;
  totalTokens: number;
  error?: string;
  /** The turn was stopped (`cancelTurn`); its text is what it had written. */
  cancelled?: true;
}

/**
 * Turns one turn's live items into AI SDK UI message-stream chunks, so `useChat` renders the
 * turn unchanged: steps, text and reasoning as they stream, tool calls with their outputs or
 * errors, orchestration changes as `data-orchestration` parts, and `reset-step` when a model
 * call is retried (the client drops what that attempt had streamed).
 */
export class TurnChunker {
  private stepOpen = false;
  private textId: string | undefined;
  private reasoningId: string | undefined;
  private partCount = 0;
  /** Whether any live item of the turn was turned into chunks. */
  private sawLive = false;
  /** The text streamed in the current model step (the turn's text is its last step's). */
  private stepText = "";
  /** Tool calls a person denied (or nobody approved in time): their refusal is not an error. */
  private readonly denied = new Set<string>();

  start(messageId: string): UIMessageChunk[] {
    return [{ type: "start", messageId }];
  }

  fromLive(item: LiveItem): UIMessageChunk[] {
    this.sawLive = true;
    switch (item.type) {
      case "text_delta":
        return this.delta("text", item.step, item.delta);
      case "reasoning_delta":
        return this.delta("reasoning", item.step, item.delta);
      case "tool_call":
        return [
          ...this.closeParts(),
          {
            type: "tool-input-available",
            toolCallId: item.toolCallId,
            toolName: item.toolName,
            input: item.input,
          },
        ];
      case "model_retry":
        this.stepText = "";
        this.textId = undefined;
        this.reasoningId = undefined;
        return this.stepOpen ? [{ type: "reset-step" }] : [];
      case "gap":
      case "skipped":
        return [];
      case "session":
        return this.fromEvent(item.event);
    }
  }

  private fromEvent(event: Extract<LiveItem, { type: "session" }>["event"]): UIMessageChunk[] {
    switch (event.type) {
      case "model_step": {
        this.stepText = "";
        const chunks = this.closeStep();
        this.stepOpen = true;
        return [...chunks, { type: "start-step" }];
      }
      case "tool_output":
        return [
          { type: "tool-output-available", toolCallId: event.toolCallId, output: event.output },
        ];
      case "approval_requested":
        return [
          ...this.closeParts(),
          {
            type: "tool-approval-request",
            approvalId: event.approvalId,
            toolCallId: event.toolCallId,
          },
        ];
      case "approval_decided":
        if (event.outcome === "approved") return [];
        this.denied.add(event.toolCallId);
        return [{ type: "tool-output-denied", toolCallId: event.toolCallId }];
      case "tool_finished":
        return event.status === "ok" || this.denied.has(event.toolCallId)
          ? []
          : [
              {
                type: "tool-output-error",
                toolCallId: event.toolCallId,
                errorText: event.detail ?? `${event.toolName} ${event.status}`,
              },
            ];
      case "orchestration":
        return [{ type: "data-orchestration", data: event.event }];
      default:
        return [];
    }
  }

  /**
   * The closing chunks of a stream that stops while the turn waits for a person's approval: the
   * step ends and the message finishes with the tool call pending, as the AI SDK's own approval
   * flow does; `addToolApprovalResponse` answers it, and the answer's request continues the turn.
   */
  pause(): UIMessageChunk[] {
    return [...this.closeStep(), { type: "finish", finishReason: "tool-calls" }];
  }

  /**
   * Continuing a turn after an approval: the chunks so far were streamed by the request that
   * stopped at the approval, so the items up to here only rebuild this chunker's state.
   */
  resumeAfter(): void {
    this.textId = undefined;
    this.reasoningId = undefined;
    this.stepOpen = false;
  }

  /**
   * The closing chunks: what the live items missed when they were not the whole turn (a viewer
   * that fell behind), the open step, an error if the turn failed, and `finish`.
   */
  finish(result: TurnResult, complete = true): UIMessageChunk[] {
    const metadata: TurnMetadata = {
      sessionId: result.state.sessionId,
      turn: result.turn,
      activeStep: result.state.activeStep,
      totalTokens: result.state.cumulativeTokenUsage.totalTokens,
      ...(result.error === undefined ? {} : { error: result.error }),
      ...(result.cancelled === true ? { cancelled: true as const } : {}),
    };
    return [
      ...(complete ? [] : this.missedBy(result)),
      ...this.closeStep(),
      ...(result.error === undefined ? [] : [{ type: "error" as const, errorText: result.error }]),
      {
        type: "finish",
        finishReason:
          result.error !== undefined ? "error" : result.cancelled === true ? "interrupted" : "stop",
        messageMetadata: metadata,
      },
    ];
  }

  /** The turn's text as its result has it, less what the live items already streamed. */
  private missedBy(result: TurnResult): UIMessageChunk[] {
    if (!this.sawLive) return this.fromResult(result);
    if (result.text === this.stepText) return [];
    if (result.text.startsWith(this.stepText)) {
      return this.delta("text", 0, result.text.slice(this.stepText.length));
    }
    // The streamed text diverged from the answer (items lost mid-step): give the answer whole.
    return [...this.closeParts(), ...this.delta("text", 0, result.text)];
  }

  /**
   * A whole turn from its result alone, for a turn whose live events are no longer held (a
   * repeated request for a message answered long ago): its text, and its tool calls as a
   * `data-tool-calls` part (the result does not keep their inputs and outputs).
   */
  fromResult(result: TurnResult): UIMessageChunk[] {
    this.stepOpen = true;
    return [
      { type: "start-step" },
      ...(result.toolCalls.length === 0
        ? []
        : [{ type: "data-tool-calls" as const, data: result.toolCalls }]),
      ...(result.text === "" ? [] : this.delta("text", 0, result.text)),
    ];
  }

  private delta(kind: "text" | "reasoning", step: number, delta: string): UIMessageChunk[] {
    const chunks: UIMessageChunk[] = [];
    if (kind === "text") {
      if (this.reasoningId !== undefined) chunks.push(...this.closeParts());
      if (this.textId === undefined) {
        this.textId = `text-${step}-${++this.partCount}`;
        chunks.push({ type: "text-start", id: this.textId });
      }
      chunks.push({ type: "text-delta", id: this.textId, delta });
      this.stepText += delta;
    } else {
      if (this.textId !== undefined) chunks.push(...this.closeParts());
      if (this.reasoningId === undefined) {
        this.reasoningId = `reasoning-${step}-${++this.partCount}`;
        chunks.push({ type: "reasoning-start", id: this.reasoningId });
      }
      chunks.push({ type: "reasoning-delta", id: this.reasoningId, delta });
    }
    return chunks;
  }

  private closeParts(): UIMessageChunk[] {
    const chunks: UIMessageChunk[] = [];
    if (this.textId !== undefined) chunks.push({ type: "text-end", id: this.textId });
    if (this.reasoningId !== undefined)
      chunks.push({ type: "reasoning-end", id: this.reasoningId });
    this.textId = undefined;
    this.reasoningId = undefined;
    return chunks;
  }

  private closeStep(): UIMessageChunk[] {
    if (!this.stepOpen) return [];
    this.stepOpen = false;
    return [...this.closeParts(), { type: "finish-step" }];
  }
}
