import type { IncomingMessage, Server, ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";

// What every fake provider server shares: reading a request body, answering JSON, counting
// tokens the same deterministic way, and listening on loopback with a queue of scripted replies.

export async function readBody(request: IncomingMessage): Promise<string> {
  const chunks: Buffer[] = [];
  for await (const chunk of request) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks).toString("utf8");
}

export function sendJson(response: ServerResponse, status: number, body: unknown): void {
  response.writeHead(status, { "content-type": "application/json" });
  response.end(JSON.stringify(body));
}

/** Token counts as characters / 4: deterministic for a given request, alike in every fake. */
export function tokens(value: unknown): number {
  return Math.max(1, Math.ceil(JSON.stringify(value ?? "").length / 4));
}

/** A listening fake: its address, what it received, and its queue of scripted replies. */
export interface ListeningFake<Request, Reply> {
  /** `http://127.0.0.1:<port>`. */
  url: string;
  /** Every request received, in order. */
  requests: Request[];
  /** Appends replies to the queue. */
  enqueue(...replies: Reply[]): void;
  /** Replies not consumed yet. */
  pendingReplies(): number;
  close(): Promise<void>;
}

/** Listens on a free loopback port; `close` cuts open connections (streams held by a test). */
export async function listenFake<Request, Reply>(
  server: Server,
  requests: Request[],
  queue: Reply[],
): Promise<ListeningFake<Request, Reply>> {
  await new Promise<void>((resolve) => {
    server.listen(0, "127.0.0.1", resolve);
  });
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    requests,
    enqueue: (...more) => {
      queue.push(...more);
    },
    pendingReplies: () => queue.length,
    close: async () => {
      server.closeAllConnections();
      await new Promise<void>((resolve, reject) => {
        server.close((error) => {
          if (error === undefined) resolve();
          else reject(error);
        });
      });
    },
  };
}
