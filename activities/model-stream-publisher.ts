import type { LanguageModelV4StreamPart } from "@ai-sdk/provider";
import type { LivePart } from "../src/session/live-parts.ts";

type StreamPart = LanguageModelV4StreamPart;

/** The stream topic of one model call (a workflow-streams topic handle). */
export interface PartTopic {
  publish(value: Uint8Array, options?: { forceFlush?: boolean }): void;
}

const encoder = new TextEncoder();

/** The part as live viewers need it, or undefined when they do not read it. */
function livePart(part: StreamPart): LivePart | undefined {
  switch (part.type) {
    case "stream-start":
      // Marks each attempt's start: a second one tells viewers to discard the retried text.
      return { type: "stream-start" };
    case "text-delta":
    case "reasoning-delta":
      return part.delta === "" ? undefined : { type: part.type, id: part.id, delta: part.delta };
    case "tool-call":
      return part;
    default:
      // Block starts and ends, metadata, usage and errors: the activity's result records them,
      // and no viewer shows them while the call runs.
      return undefined;
  }
}

/**
 * Publishes a model call's live parts to its stream topic: only the parts viewers show, with
 * consecutive deltas of one block merged and sent once per interval. Every publish is a signal
 * recorded in the session's history, while the activity's result records the whole answer
 * anyway: the raw parts, one item each, were a fifth of a turn's history.
 */
export class ModelStreamPublisher {
  private readonly topic: PartTopic;
  private pending: LivePart[] = [];
  private readonly timer: NodeJS.Timeout;
  /**
   * Whether what is pending when the call ends is left to the workflow, when nothing was sent
   * before: the workflow publishes such a call's parts from its result, with no signal.
   */
  private readonly deferred: boolean;
  /** Whether any part of this call was handed to the stream client. */
  sentAny = false;

  constructor(topic: PartTopic, intervalMs: number, options: { deferred?: boolean } = {}) {
    this.topic = topic;
    this.deferred = options.deferred ?? false;
    this.timer = setInterval(() => {
      this.send();
    }, intervalMs);
  }

  add(streamPart: StreamPart): void {
    const part = livePart(streamPart);
    if (part === undefined) return;
    const last = this.pending.at(-1);
    if (
      last !== undefined &&
      (part.type === "text-delta" || part.type === "reasoning-delta") &&
      last.type === part.type &&
      last.id === part.id
    ) {
      this.pending[this.pending.length - 1] = { ...last, delta: last.delta + part.delta };
      return;
    }
    this.pending.push(part);
  }

  /** Hands what is pending to the stream client and asks it to send now. */
  send(): void {
    const parts = this.pending;
    if (parts.length === 0) return;
    this.pending = [];
    this.sentAny = true;
    parts.forEach((part, index) => {
      this.topic.publish(encoder.encode(JSON.stringify(part)), {
        forceFlush: index === parts.length - 1,
      });
    });
  }

  /**
   * Stops the interval; what is pending goes to the client, whose disposal sends it, unless the
   * call is deferred and sent nothing yet (the workflow publishes it from the result) or it is
   * discarded: a stopped call's workflow has closed its topic, so a late send would only add a
   * signal to the session's history that nobody reads.
   */
  close(options: { discard?: boolean } = {}): void {
    clearInterval(this.timer);
    if (options.discard === true || (this.deferred && !this.sentAny)) {
      this.pending = [];
      return;
    }
    this.send();
  }
}
