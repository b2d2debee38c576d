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
import { z } from "zod";
import { MODEL_PARTS_TOPIC, SESSION_EVENTS_TOPIC } from "../src/session/stream-topics.ts";
import { formatIssues } from "../src/session/session-types.ts";
import type { StreamEvent } from "../src/session/session-types.ts";

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
  log: unknown[];
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
const PUBLISH_GUARD_PATCH = "stream-publish-guard";

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

  publishEvent(event: StreamEvent): void {
    this.topic<StreamEvent>(SESSION_EVENTS_TOPIC).publish(event);
  }

  /** Drops items before `offset` (no-op if already dropped). */
  dropBefore(offset: number): void {
    if (offset > this.firstOffset && offset <= this.offset) this.truncate(offset);
  }
}
