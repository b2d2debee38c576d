import type { IncomingMessage, ServerResponse } from "node:http";

/**
 * CORS for browser clients on other origins (a `useChat` page served elsewhere): allowed
 * origins come from configuration (`*` for any). Returns true when the request was a preflight
 * and has been answered.
 */
export function applyCors(
  request: IncomingMessage,
  response: ServerResponse,
  allowedOrigins: readonly string[],
): boolean {
  const origin = request.headers.origin;
  if (origin === undefined || allowedOrigins.length === 0) return false;
  const allowed = allowedOrigins.includes("*") || allowedOrigins.includes(origin);
  if (!allowed) return false;
  response.setHeader("access-control-allow-origin", allowedOrigins.includes("*") ? "*" : origin);
  response.setHeader("vary", "origin");
  if (request.method !== "OPTIONS") return false;
  response.writeHead(204, {
    "access-control-allow-methods": "GET, POST, DELETE, OPTIONS",
    "access-control-allow-headers": "authorization, content-type, last-event-id",
    "access-control-max-age": "600",
  });
  response.end();
  return true;
}
