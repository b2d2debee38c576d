import { ApplicationFailure, patched, setHandler, uuid4 } from "@temporalio/workflow";
import {
  decodePayloadWire,
  WorkflowStream,
  workflowStreamPollUpdate,
  workflowStreamPublishSignal,
  type PollInput,
  type PollResult,
  type PublishInput,
  type WorkflowStreamState,
} from "@temporalio/workflow-streams/workflow";
import type { Payload } from "@temporalio/workflow";
import { z } from "zod";
import { payloadConverter } from "../src/session/payload-converter.ts";
import { MODEL_PARTS_TOPIC, SESSION_EVENTS_TOPIC } from "../src/session/stream-topics.ts";
import { formatIssues } from "../src/session/session-types.ts";
import type { StreamEvent } from "../src/session/session-types.ts";
import type { LivePart } from "../src/session/live-parts.ts";

const publishInputSchema = z.object({
  items: z.array(z.object({ topic: z.string().min(1), data: z.string() })),
  publisher_id: z.string(),
  sequence: z.number().int(),
});
const pollInputSchema = z.object({
  topics: z.array(z.string()),
  from_offset: z.number().int().min(0),
});

/**
 * The library's own handlers and bookkeeping, which this class wraps. Its declaration files
 * erase private members' types, so they are spelled out here (checked by the stream tests).
 */
interface StreamInternals {
  onPublish(input: PublishInput): void;
  onPoll(input: PollInput): Promise<PollResult>;
  draining: boolean;
  baseOffset: number;
  log: { topic: string; payload: Payload }[];
}

/** How many stopped model calls' topics are remembered, so their late parts are dropped quietly. */
const CLOSED_TOPICS_KEPT = 8;

/**
 * A model stream part, as far as the text it carries goes. The model activity publishes each
 * part as the bytes of its JSON; anything unreadable carries no text.
 */
function textOfPart(payload: Payload): { restart: boolean; delta: string } {
  const none = { restart: false, delta: "" };
  const bytes: unknown = payloadConverter.fromPayload(payload);
  if (!ArrayBuffer.isView(bytes)) return none;
  let part: unknown;
  try {
    part = JSON.parse(new TextDecoder().decode(bytes as Uint8Array));
  } catch {
    return none;
  }
  if (typeof part !== "object" || part === null) return none;
  const { type, delta } = part as { type?: unknown; delta?: unknown };
  if (type === "stream-start") return { restart: true, delta: "" };
  return { restart: false, delta: type === "text-delta" && typeof delta === "string" ? delta : "" };
}

function isDecodable(input: PublishInput): boolean {
  try {
    for (const item of input.items) decodePayloadWire(item.data);
    return true;
  } catch {
    return false;
  }
}

/** Sessions that started before publishes were tied to a model call accept the shared topic. */
export const PUBLISH_GUARD_PATCH = "stream-publish-guard";

/**
 * The session's live stream: an offset-addressed log that subscribers long-poll (updates) and
 * the model activity publishes stream parts to (signals). Signals are not validated by the
 * server and anyone who can reach Temporal can send one, so a publish is accepted only when it
 * is well formed and every item is on the topic of the model call in progress, a topic named
 * afresh for each call (`model/<uuid>`) and handed only to that call's activity. Session events
 * are published by the workflow itself and never through a signal. A rejected publish is
 * reported instead of failing the workflow task; a malformed poll is refused by its validator.
 */
export class SessionStream extends WorkflowStream {
  /** The topic the running model call publishes to; nothing is accepted before the first call. */
  private modelTopic: string | undefined;
  /**
   * Topics of model calls that were stopped (a cancelled turn): their activity may still run on
   * its worker and publish, and those late parts are dropped without a rejection event.
   */
  private readonly closedTopics: string[] = [];

  constructor(priorState: WorkflowStreamState | undefined, onRejected: (reason: string) => void) {
    // Signals that arrived before this run's first task are delivered the moment a handler is
    // registered, and the library's constructor registers an unchecked one: take them first.
    // No model call runs before this run's first task, so none of them is the session's own.
    setHandler(workflowStreamPublishSignal, () => {
      onRejected("stream publish: not from a model call of this session, ignored");
    });
    super(priorState);
    const internals = this as unknown as StreamInternals;
    // Replace the library's handlers with checking ones that delegate to it.
    setHandler(workflowStreamPublishSignal, (input: unknown) => {
      const parsed = publishInputSchema.safeParse(input);
      if (!parsed.success || !isDecodable(parsed.data)) {
        onRejected("stream publish: malformed payload ignored");
        return;
      }
      const topic = this.modelTopic;
      if (parsed.data.items.every((item) => this.closedTopics.includes(item.topic))) return;
      if (topic === undefined || parsed.data.items.some((item) => item.topic !== topic)) {
        onRejected("stream publish: not from a model call of this session, ignored");
        return;
      }
      internals.onPublish(parsed.data);
    });
    setHandler(workflowStreamPollUpdate, (input: PollInput) => internals.onPoll(input), {
      validator: (input: unknown) => {
        const parsed = pollInputSchema.safeParse(input);
        if (!parsed.success) {
          throw new Error(`stream poll: ${formatIssues(parsed.error)}`);
        }
        if (internals.draining) {
          // The library's marker: subscribers retry until their poll lands on the next run.
          throw ApplicationFailure.create({
            message: "Workflow is draining for continue-as-new",
            type: "StreamDraining",
            nonRetryable: true,
          });
        }
      },
    });
  }

  /** The oldest offset still held. */
  get firstOffset(): number {
    return (this as unknown as StreamInternals).baseOffset;
  }

  /** The offset the next published item will get. */
  get offset(): number {
    const internals = this as unknown as StreamInternals;
    return internals.baseOffset + internals.log.length;
  }

  /**
   * The topic for the model call about to start; from now on only publishes to it are accepted
   * (the previous call's topic is closed).
   */
  openModelTopic(): string {
    this.modelTopic = patched(PUBLISH_GUARD_PATCH)
      ? `${MODEL_PARTS_TOPIC}/${uuid4()}`
      : MODEL_PARTS_TOPIC;
    return this.modelTopic;
  }

  /**
   * Stops accepting the running model call's parts (its turn was cancelled) and returns the text
   * it had streamed so far, from its last attempt's start.
   */
  closeModelCall(): string {
    const topic = this.modelTopic;
    if (topic === undefined) return "";
    this.modelTopic = undefined;
    this.closedTopics.push(topic);
    if (this.closedTopics.length > CLOSED_TOPICS_KEPT) this.closedTopics.shift();
    let text = "";
    for (const entry of (this as unknown as StreamInternals).log) {
      if (entry.topic !== topic) continue;
      const { restart, delta } = textOfPart(entry.payload);
      text = restart ? "" : text + delta;
    }
    return text;
  }

  /**
   * Publishes a model call's live parts from the workflow (a call whose activity sent none): the
   * same bytes the activity would have sent, with no signal, so no history event.
   */
  publishModelParts(topic: string, parts: readonly LivePart[]): void {
    const handle = this.topic<Uint8Array>(topic);
    const encoder = new TextEncoder();
    for (const part of parts) handle.publish(encoder.encode(JSON.stringify(part)));
  }

  publishEvent(event: StreamEvent): void {
    this.topic<StreamEvent>(SESSION_EVENTS_TOPIC).publish(event);
  }

  /** Drops items before `offset` (no-op if already dropped). */
  dropBefore(offset: number): void {
    if (offset > this.firstOffset && offset <= this.offset) this.truncate(offset);
  }
}
