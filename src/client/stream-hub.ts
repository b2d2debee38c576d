import type { Client } from "@temporalio/client";
import type { LiveEvent } from "./live-events.ts";
import { SessionFeed } from "./session-feed.ts";

export interface StreamHubOptions {
  /** Live events each session's feed keeps for late joiners and resumes. */
  bufferLimit?: number;
  /** How long a feed with no viewers is kept before it is dropped. */
  idleMs?: number;
}

/**
 * One shared feed per session per process: every viewer of a session (SSE clients, chat
 * requests, the terminal chat) reads the same subscription, so a session sees one stream poll
 * in flight from this process however many viewers it has.
 */
export class StreamHub {
  private readonly client: Client;
  private readonly feeds = new Map<string, SessionFeed>();
  private readonly idleTimers = new Map<string, NodeJS.Timeout>();
  private readonly bufferLimit: number;
  private readonly idleMs: number;

  constructor(client: Client, options: StreamHubOptions = {}) {
    this.client = client;
    this.bufferLimit = options.bufferLimit ?? 20_000;
    // Long: a closed feed's poll stays in flight on the workflow until its next item, and the
    // server allows few updates in flight per workflow.
    this.idleMs = options.idleMs ?? 10 * 60_000;
  }

  /** Live events of a session after `after` (all held when undefined), until it ends or `signal` aborts. */
  async *watch(
    sessionId: string,
    after: number | undefined,
    signal: AbortSignal,
  ): AsyncGenerator<LiveEvent> {
    const feed = this.acquire(sessionId);
    try {
      yield* feed.read(after, signal);
    } finally {
      this.release(feed);
    }
  }

  private acquire(sessionId: string): SessionFeed {
    clearTimeout(this.idleTimers.get(sessionId));
    this.idleTimers.delete(sessionId);
    let feed = this.feeds.get(sessionId);
    if (feed === undefined || feed.finished || feed.failure !== undefined) {
      feed = new SessionFeed(this.client, sessionId, { bufferLimit: this.bufferLimit });
      this.feeds.set(sessionId, feed);
    }
    feed.viewers++;
    return feed;
  }

  private release(feed: SessionFeed): void {
    feed.viewers--;
    if (feed.viewers > 0) return;
    const timer = setTimeout(() => {
      this.idleTimers.delete(feed.sessionId);
      if (feed.viewers > 0 || this.feeds.get(feed.sessionId) !== feed) return;
      feed.close();
      this.feeds.delete(feed.sessionId);
    }, this.idleMs);
    timer.unref();
    this.idleTimers.set(feed.sessionId, timer);
  }

  close(): void {
    for (const timer of this.idleTimers.values()) clearTimeout(timer);
    for (const feed of this.feeds.values()) feed.close();
    this.feeds.clear();
    this.idleTimers.clear();
  }
}
