import { ApplicationFailure, setHandler } from "@temporalio/workflow";
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
import { SESSION_EVENTS_TOPIC } from "../src/session/stream-topics.ts";
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

/**
 * The session's live stream: an offset-addressed log that subscribers long-poll (updates) and
 * the model activity publishes stream parts to (signals). Signals are not validated by the
 * server, so a malformed publish is rejected here and reported instead of failing the workflow
 * task; a malformed poll is refused by its validator.
 */
export class SessionStream extends WorkflowStream {
  constructor(priorState: WorkflowStreamState | undefined, onRejected: (reason: string) => void) {
    // Signals that arrived before this run's first task are delivered the moment a handler is
    // registered, and the library's constructor registers an unchecked one: take them first.
    const early: PublishInput[] = [];
    const checked = (input: unknown): PublishInput | undefined => {
      const parsed = publishInputSchema.safeParse(input);
      if (parsed.success && isDecodable(parsed.data)) return parsed.data;
      onRejected("stream publish: malformed payload ignored");
      return undefined;
    };
    setHandler(workflowStreamPublishSignal, (input: unknown) => {
      const valid = checked(input);
      if (valid !== undefined) early.push(valid);
    });
    super(priorState);
    const internals = this as unknown as StreamInternals;
    // Replace the library's handlers with validating ones that delegate to it.
    setHandler(workflowStreamPublishSignal, (input: unknown) => {
      const valid = checked(input);
      if (valid !== undefined) internals.onPublish(valid);
    });
    for (const input of early) internals.onPublish(input);
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

  publishEvent(event: StreamEvent): void {
    this.topic<StreamEvent>(SESSION_EVENTS_TOPIC).publish(event);
  }

  /** Drops items before `offset` (no-op if already dropped). */
  dropBefore(offset: number): void {
    if (offset > this.firstOffset && offset <= this.offset) this.truncate(offset);
  }
}
