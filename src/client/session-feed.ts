import { defaultPayloadConverter, type Payload } from "@temporalio/common";
import type { Client } from "@temporalio/client";
import { WorkflowStreamClient } from "@temporalio/workflow-streams/client";
import {
  isModelPartsTopic,
  SESSION_EVENTS_TOPIC,
  workflowIdFor,
  type StreamEvent,
} from "../session/index.ts";
import { LiveTranslator, type LiveEvent, type LiveItem } from "./live-events.ts";

const decoder = new TextDecoder();

function decodeModelPart(payload: Payload): { type: string } | undefined {
  const value: unknown = defaultPayloadConverter.fromPayload(payload);
  const text = value instanceof Uint8Array ? decoder.decode(value) : undefined;
  if (text === undefined) return undefined;
  try {
    const part = JSON.parse(text) as unknown;
    return typeof part === "object" && part !== null && "type" in part
      ? (part as { type: string })
      : undefined;
  } catch {
    return undefined;
  }
}

/** Only the workflow publishes session events; still, a viewer checks the one field it reads. */
function isStreamEvent(value: unknown): value is StreamEvent {
  return (
    typeof value === "object" &&
    value !== null &&
    typeof (value as { type?: unknown }).type === "string"
  );
}

export interface FeedOptions {
  /** Live events kept in memory for viewers that join late or resume (oldest dropped first). */
  bufferLimit: number;
}

/**
 * One subscriber to one session's stream, shared by every viewer in this process (each poll is
 * a workflow update, and the server allows few in flight per workflow). It reads the stream
 * from the oldest item the session keeps, translates items into live events, and keeps a
 * bounded buffer so viewers can resume from any offset still held.
 */
export class SessionFeed {
  readonly sessionId: string;
  private readonly events: LiveEvent[] = [];
  private readonly waiters = new Set<() => void>();
  private readonly translator = new LiveTranslator();
  private readonly options: FeedOptions;
  private expectedOffset: number | undefined;
  /** Set once the session's workflow chain has finished (no more events ever). */
  finished = false;
  failure: Error | undefined;
  viewers = 0;
  private closed = false;
  private reportedMalformed = false;
  private readonly stop = new AbortController();

  constructor(client: Client, sessionId: string, options: FeedOptions) {
    this.sessionId = sessionId;
    this.options = options;
    void this.run(client);
  }

  private async run(client: Client): Promise<void> {
    const stream = WorkflowStreamClient.create(client, workflowIdFor(this.sessionId));
    try {
      // Closing the feed aborts its in-flight poll RPC instead of leaving it to the next item.
      await client.withAbortSignal(this.stop.signal, async () => {
        for await (const item of stream.subscribe(undefined, 0)) {
          if (this.closed) return;
          this.accept(item.topic, item.data, item.offset);
        }
        this.finished = true;
      });
    } catch (error) {
      if (!this.closed) this.failure = error instanceof Error ? error : new Error(String(error));
    } finally {
      this.wake();
    }
  }

  /** Stops reading; viewers still attached see the end of the stream. */
  close(): void {
    this.closed = true;
    this.stop.abort();
    this.wake();
  }

  private accept(topic: string, payload: Payload, offset: number): void {
    const items: LiveItem[] = [];
    if (this.expectedOffset !== undefined && offset > this.expectedOffset) {
      items.push({ type: "gap", from: this.expectedOffset });
    }
    this.expectedOffset = offset + 1;
    try {
      items.push(...this.translate(topic, payload));
    } catch (error) {
      // One unreadable item must not end every viewer's stream: skip it, say so once.
      if (!this.reportedMalformed) {
        this.reportedMalformed = true;
        const reason = error instanceof Error ? error.message : String(error);
        items.push({ type: "skipped", reason: `an unreadable stream item was skipped: ${reason}` });
      }
    }
    for (const item of items) this.events.push({ offset, item });
    const excess = this.events.length - this.options.bufferLimit;
    if (excess > 0) this.events.splice(0, excess);
    if (items.length > 0) this.wake();
  }

  private translate(topic: string, payload: Payload): LiveItem[] {
    if (topic === SESSION_EVENTS_TOPIC) {
      const event: unknown = defaultPayloadConverter.fromPayload(payload);
      if (!isStreamEvent(event)) throw new Error("a session event without a type");
      return this.translator.fromEvent(event);
    }
    if (isModelPartsTopic(topic)) {
      const part = decodeModelPart(payload);
      return part === undefined ? [] : this.translator.fromModelPart(part);
    }
    return [];
  }

  /** Index of the first held event with offset > `offset` (events are in offset order), or -1. */
  private firstAfter(offset: number): number {
    let low = 0;
    let high = this.events.length;
    while (low < high) {
      const middle = (low + high) >>> 1;
      if ((this.events[middle]?.offset ?? Infinity) > offset) high = middle;
      else low = middle + 1;
    }
    return low < this.events.length ? low : -1;
  }

  private wake(): void {
    for (const waiter of [...this.waiters]) waiter();
  }

  /**
   * Live events with offset > `after` (all held events when undefined), then new ones as they
   * come, until the session finishes, the feed fails, or `signal` aborts.
   */
  async *read(after: number | undefined, signal: AbortSignal): AsyncGenerator<LiveEvent> {
    let cursor = after;
    let reportedGap = false;
    for (;;) {
      if (signal.aborted) return;
      const oldest = this.events[0];
      if (
        !reportedGap &&
        cursor !== undefined &&
        oldest !== undefined &&
        oldest.offset > cursor + 1
      ) {
        // The viewer's position is older than anything held: say so instead of skipping silently.
        reportedGap = true;
        yield { offset: oldest.offset, item: { type: "gap", from: cursor + 1 } };
      }
      const start = cursor === undefined ? 0 : this.firstAfter(cursor);
      if (start >= 0 && start < this.events.length) {
        const batch = this.events.slice(start);
        for (const event of batch) {
          yield event;
          cursor = event.offset;
        }
        // Several live events can share one offset: continue after the last one delivered.
        continue;
      }
      if (this.finished || this.closed) return;
      if (this.failure !== undefined) throw this.failure;
      await new Promise<void>((resolve) => {
        const done = (): void => {
          this.waiters.delete(done);
          signal.removeEventListener("abort", done);
          resolve();
        };
        this.waiters.add(done);
        signal.addEventListener("abort", done, { once: true });
      });
    }
  }
}
