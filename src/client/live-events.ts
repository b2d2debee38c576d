import type { StreamEvent } from "../session/index.ts";

/**
 * What live viewers receive, each at the offset of the stream item it came from (SSE `id:`).
 * Model stream parts are reduced to what a person sees; `model_retry` tells them to discard
 * the text, reasoning and tool calls streamed so far for that model step, because its activity
 * is being retried and re-streams from the start.
 */
export type LiveItem =
  | { type: "session"; event: StreamEvent }
  | { type: "text_delta"; step: number; delta: string }
  | { type: "reasoning_delta"; step: number; delta: string }
  | { type: "tool_call"; step: number; toolCallId: string; toolName: string; input: unknown }
  | { type: "model_retry"; step: number }
  /** Items were dropped between the previous offset and this one (the viewer fell too far behind). */
  | { type: "gap"; from: number }
  /** An item that could not be read was skipped (reported once per stream). */
  | { type: "skipped"; reason: string };

export interface LiveEvent {
  offset: number;
  item: LiveItem;
}

/** The parts of the AI SDK's LanguageModelV4StreamPart this translation reads. */
interface ModelPart {
  type: string;
  delta?: unknown;
  toolCallId?: unknown;
  toolName?: unknown;
  input?: unknown;
}

function parseToolInput(input: unknown): unknown {
  if (typeof input !== "string") return input;
  try {
    return JSON.parse(input) as unknown;
  } catch {
    return input;
  }
}

/**
 * Turns the session's raw stream items into live items, in order. Stateful (which model step is
 * streaming, whether its attempt already started): one translator per stream, fed every item.
 */
export class LiveTranslator {
  private step = 0;
  private attemptStarted = false;

  fromEvent(event: StreamEvent): LiveItem[] {
    if (event.type === "model_step") {
      this.step = event.step;
      this.attemptStarted = false;
    }
    return [{ type: "session", event }];
  }

  fromModelPart(part: ModelPart): LiveItem[] {
    const step = this.step;
    switch (part.type) {
      case "stream-start": {
        // Every attempt of a model activity starts its stream again: a second start is a retry.
        const retried = this.attemptStarted;
        this.attemptStarted = true;
        return retried ? [{ type: "model_retry", step }] : [];
      }
      case "text-delta":
        return typeof part.delta === "string" && part.delta !== ""
          ? [{ type: "text_delta", step, delta: part.delta }]
          : [];
      case "reasoning-delta":
        return typeof part.delta === "string" && part.delta !== ""
          ? [{ type: "reasoning_delta", step, delta: part.delta }]
          : [];
      case "tool-call":
        return typeof part.toolCallId === "string" && typeof part.toolName === "string"
          ? [
              {
                type: "tool_call",
                step,
                toolCallId: part.toolCallId,
                toolName: part.toolName,
                input: parseToolInput(part.input),
              },
            ]
          : [];
      default:
        return [];
    }
  }
}
