import { authorizedFetch } from "./api-fetch.ts";

/** One Server-Sent Event of `/api/sessions/:id/events`. */
export interface SessionStreamItem {
  id: string | undefined;
  data: unknown;
}

/**
 * Reads the session's live events with `fetch` (EventSource cannot send the bearer token),
 * resuming after the last event id when the connection drops, until `signal` aborts.
 */
export async function followSessionEvents(
  sessionId: string,
  onItem: (item: SessionStreamItem) => void,
  signal: AbortSignal,
): Promise<void> {
  let lastId: string | undefined;
  while (!signal.aborted) {
    try {
      const response = await authorizedFetch(
        `/api/sessions/${encodeURIComponent(sessionId)}/events`,
        { signal, headers: lastId === undefined ? {} : { "last-event-id": lastId } },
      );
      if (response.ok && response.body !== null) {
        lastId = await readEvents(response.body, signal, onItem, lastId);
      }
    } catch {
      // Dropped or refused: try again below.
    }
    await pause(2_000, signal);
  }
}

async function readEvents(
  body: ReadableStream<Uint8Array>,
  signal: AbortSignal,
  onItem: (item: SessionStreamItem) => void,
  lastId: string | undefined,
): Promise<string | undefined> {
  const reader = body.getReader();
  const decoder = new TextDecoder();
  const cancel = (): void => {
    void reader.cancel();
  };
  signal.addEventListener("abort", cancel, { once: true });
  let buffer = "";
  let last = lastId;
  try {
    for (;;) {
      const { done, value } = await reader.read();
      if (done) return last;
      buffer += decoder.decode(value, { stream: true }).replace(/\r\n?/g, "\n");
      let end = buffer.indexOf("\n\n");
      while (end !== -1) {
        const block = buffer.slice(0, end);
        buffer = buffer.slice(end + 2);
        end = buffer.indexOf("\n\n");
        let id: string | undefined;
        const data: string[] = [];
        for (const line of block.split("\n")) {
          if (line.startsWith("id:")) id = line.slice(3).trim();
          else if (line.startsWith("data:")) data.push(line.slice(5).trimStart());
        }
        if (data.length === 0) continue;
        if (id !== undefined) last = id;
        try {
          onItem({ id, data: JSON.parse(data.join("\n")) as unknown });
        } catch {
          // A malformed event is skipped; the next one still counts.
        }
      }
    }
  } finally {
    signal.removeEventListener("abort", cancel);
  }
}

function pause(ms: number, signal: AbortSignal): Promise<void> {
  return new Promise((resolve) => {
    const timer = setTimeout(resolve, ms);
    signal.addEventListener(
      "abort",
      () => {
        clearTimeout(timer);
        resolve();
      },
      { once: true },
    );
  });
}
