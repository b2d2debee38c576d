/** One Server-Sent Event as a client receives it. */
export interface SseEvent {
  id: string | undefined;
  data: string;
}

/**
 * Reads a `text/event-stream` response body event by event (comments skipped), the way
 * EventSource does: `id:` and `data:` fields, events separated by a blank line.
 */
export async function* readSse(body: ReadableStream<Uint8Array>): AsyncGenerator<SseEvent> {
  const decoder = new TextDecoder();
  let buffer = "";
  for await (const chunk of body) {
    buffer += decoder.decode(chunk, { stream: true });
    let boundary = buffer.indexOf("\n\n");
    while (boundary !== -1) {
      const block = buffer.slice(0, boundary);
      buffer = buffer.slice(boundary + 2);
      boundary = buffer.indexOf("\n\n");
      let id: string | undefined;
      const data: string[] = [];
      for (const line of block.split("\n")) {
        if (line.startsWith(":")) continue;
        const colon = line.indexOf(":");
        const field = colon === -1 ? line : line.slice(0, colon);
        const value = colon === -1 ? "" : line.slice(colon + 1).replace(/^ /, "");
        if (field === "id") id = value;
        if (field === "data") data.push(value);
      }
      if (data.length > 0) yield { id, data: data.join("\n") };
    }
  }
}
