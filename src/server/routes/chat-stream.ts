import { createUIMessageStreamResponse } from "ai";
import type { Context } from "hono";
import {
  agentIdSchema,
  sessionIdSchema,
  type LoggedEvent,
  type TurnResult,
} from "../../session/index.ts";
import type { ApiContext, ApiEnv } from "../api-context.ts";
import { ApiError, toApiError } from "../api-error.ts";
import { tenantSession, unknownSession } from "../tenant-sessions.ts";
import { agentMismatch, turnChunks } from "./chat.ts";

/** The turn a session is running: the last one started and not yet finished. */
export function runningTurn(
  events: readonly LoggedEvent[],
): { messageId: string; text: string } | undefined {
  for (let index = events.length - 1; index >= 0; index--) {
    const event = events[index]?.event;
    if (event?.type === "turn_finished") return undefined;
    if (event?.type === "turn_started") return { messageId: event.messageId, text: event.text };
  }
  return undefined;
}

/**
 * `GET /api/chat/:agentId/:id/stream`: what `useChat({ resume: true })` asks on page load. The
 * turn the session is running, streamed from its start in the UI message-stream protocol (the
 * AI SDK replays it into the message it shows); 204 when no turn runs; 404 for a session the
 * caller's tenant does not have. The turn's result comes from sending its message again: the
 * session answers a message id it already has with that turn's result, never a second turn.
 */
export async function resumeChatStream(api: ApiContext, c: Context<ApiEnv>): Promise<Response> {
  const rawAgentId = c.req.param("agentId") ?? "";
  const agentId = agentIdSchema.safeParse(rawAgentId);
  if (!agentId.success) throw new ApiError(404, "unknown_agent", `no agent "${rawAgentId}"`);
  const rawId = c.req.param("id") ?? "";
  const parsedId = sessionIdSchema.safeParse(rawId);
  if (!parsedId.success) throw unknownSession(rawId);
  const sessionId = parsedId.data;
  const owner = await tenantSession(api.sessions, sessionId, c.var.tenant);
  if (owner.agentId !== undefined && owner.agentId !== agentId.data) {
    throw agentMismatch(sessionId, owner.agentId, agentId.data);
  }
  if (!owner.running) return c.body(null, 204);
  let turn: { messageId: string; text: string } | undefined;
  let result: Promise<TurnResult>;
  try {
    turn = runningTurn((await api.sessions.events(sessionId, 0)).events);
    if (turn === undefined) return c.body(null, 204);
    result = (await api.sessions.submitTo(sessionId, turn.text, turn.messageId)).result();
  } catch (error) {
    throw toApiError(error, sessionId);
  }
  const chunks = turnChunks(api, sessionId, turn.messageId, result, c.req.raw.signal);
  return createUIMessageStreamResponse({
    stream: ReadableStream.from(chunks),
    keepAliveMs: 15_000,
  });
}
