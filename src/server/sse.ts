import type { SSEStreamingApi } from "hono/streaming";

/** How often an idle stream sends a comment, so proxies and clients keep the connection. */
export const SSE_KEEPALIVE_MS = 15_000;

/** Comments on an idle Server-Sent Events stream until the returned function stops them. */
export function keepAlive(stream: SSEStreamingApi): () => void {
  const timer = setInterval(() => {
    void stream.write(": keepalive\n\n");
  }, SSE_KEEPALIVE_MS);
  timer.unref();
  return () => {
    clearInterval(timer);
  };
}
