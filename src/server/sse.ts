import type { ServerResponse } from "node:http";

/** How often an idle stream sends a comment, so proxies and clients keep the connection. */
export const SSE_KEEPALIVE_MS = 15_000;

/** A Server-Sent Events response: `id:` lines carry stream offsets for `Last-Event-ID` resume. */
export class SseWriter {
  private readonly response: ServerResponse;
  private readonly keepalive: NodeJS.Timeout;

  constructor(response: ServerResponse) {
    this.response = response;
    response.writeHead(200, {
      "content-type": "text/event-stream; charset=utf-8",
      "cache-control": "no-cache, no-transform",
      connection: "keep-alive",
      "x-accel-buffering": "no",
    });
    response.flushHeaders();
    this.keepalive = setInterval(() => {
      response.write(": keepalive\n\n");
    }, SSE_KEEPALIVE_MS);
    this.keepalive.unref();
  }

  send(data: unknown, id?: number): void {
    const lines = id === undefined ? "" : `id: ${id}\n`;
    this.response.write(`${lines}data: ${JSON.stringify(data)}\n\n`);
  }

  end(): void {
    clearInterval(this.keepalive);
    this.response.end();
  }
}
