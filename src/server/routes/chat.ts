import { createUIMessageStreamResponse, type UIMessageChunk } from "ai";
import type { Context } from "hono";
import { z } from "zod";
import { SessionRequestError, TurnChunker, watchTurn } from "../../client/index.ts";
import {
  agentIdSchema,
  messageIdSchema,
  sessionIdSchema,
  MAX_MESSAGE_CHARS,
  type LoggedEvent,
  type TurnResult,
} from "../../session/index.ts";
import type { ApiContext, ApiEnv } from "../api-context.ts";
import { ApiError, toApiError } from "../api-error.ts";
import { readJsonBody } from "../json-body.ts";
import { unknownSession } from "../tenant-sessions.ts";
import { invalidBody } from "../validation.ts";
import { chatApprovalResponses, deliverChatApprovals } from "./approvals.ts";

/** The body `useChat` (DefaultChatTransport) sends: the chat id is the session id. */
const chatBodySchema = z.looseObject({
  id: sessionIdSchema,
  messages: z
    .array(
      z.looseObject({
        // Earlier messages carry ids the client or this API made; only the new one is sent on.
        id: z.string().min(1, "every message needs an id").max(1_000),
        role: z.enum(["system", "user", "assistant"]),
        parts: z.array(z.looseObject({ type: z.string() })),
      }),
    )
    .min(1, "send at least one message"),
  trigger: z.enum(["submit-message", "regenerate-message"]).default("submit-message"),
});
type ChatBody = z.infer<typeof chatBodySchema>;

/** The new user message: the last one, as text. */
function userText(body: ChatBody): { messageId: string; text: string } {
  const last = body.messages.at(-1);
  if (last?.role !== "user") {
    throw new ApiError(
      400,
      "invalid_body",
      "messages: the last message must be the user's new message (or the assistant's, with answers to its tool approval requests)",
    );
  }
  const id = messageIdSchema.safeParse(last.id);
  if (!id.success) {
    throw new ApiError(
      400,
      "invalid_body",
      `messages[${body.messages.length - 1}].id: ${id.error.issues[0]?.message ?? "invalid"}`,
    );
  }
  const text = last.parts
    .flatMap((part) =>
      part.type === "text" && typeof part["text"] === "string" ? [part["text"]] : [],
    )
    .join("\n");
  if (text.trim() === "") {
    throw new ApiError(
      400,
      "empty_message",
      'the last message has no text (send a part {type: "text", text})',
    );
  }
  if (text.length > MAX_MESSAGE_CHARS) {
    throw new ApiError(
      413,
      "message_too_long",
      `the message is ${text.length} characters; the limit is ${MAX_MESSAGE_CHARS}`,
    );
  }
  return { messageId: last.id, text };
}

export const agentMismatch = (sessionId: string, owner: string, agentId: string): ApiError =>
  new ApiError(
    409,
    "agent_mismatch",
    `session "${sessionId}" belongs to agent "${owner}", not "${agentId}"`,
  );

/**
 * A chat may continue only its tenant's session, of its own agent, while it runs. This early
 * answer saves a request; the workflow's validator makes the same check atomically (two first
 * messages racing past here both reach it).
 */
async function checkExistingSession(
  api: ApiContext,
  sessionId: string,
  agentId: string,
  tenant: string,
): Promise<void> {
  let owner: Awaited<ReturnType<ApiContext["sessions"]["owner"]>>;
  try {
    owner = await api.sessions.owner(sessionId);
  } catch (error) {
    throw toApiError(error, sessionId);
  }
  if (owner === undefined) return;
  if (owner.tenant !== tenant) throw unknownSession(sessionId);
  if (!owner.running) {
    throw new ApiError(409, "session_ended", `session "${sessionId}" has ended; use a new chat id`);
  }
  if (owner.agentId !== undefined && owner.agentId !== agentId) {
    throw agentMismatch(sessionId, owner.agentId, agentId);
  }
}

/** The session's own refusals, as the API answers them. */
function refusal(error: unknown, sessionId: string): ApiError {
  if (error instanceof SessionRequestError && error.type === "AgentMismatch") {
    return new ApiError(409, "agent_mismatch", error.message, { cause: error });
  }
  if (error instanceof SessionRequestError && error.type === "TenantMismatch") {
    return unknownSession(sessionId, error);
  }
  return toApiError(error, sessionId);
}

/**
 * `POST /api/chat/:agentId`: sends the chat's new message to the session named by the body's
 * `id` (update-with-start: the session is created on first use, in the caller's tenant) and
 * streams the turn back in the AI SDK UI message-stream protocol while it runs. The turn is
 * durable: a client that goes away does not stop it, and sending the same message id again
 * answers with the same turn.
 */
export async function postChat(api: ApiContext, c: Context<ApiEnv>): Promise<Response> {
  const rawAgentId = c.req.param("agentId") ?? "";
  const agentId = agentIdSchema.safeParse(rawAgentId);
  if (!agentId.success) throw new ApiError(404, "unknown_agent", `no agent "${rawAgentId}"`);
  const parsed = chatBodySchema.safeParse(await readJsonBody(c));
  if (!parsed.success) throw invalidBody(parsed.error);
  const body = parsed.data;
  if (body.trigger === "regenerate-message") {
    throw new ApiError(
      400,
      "unsupported_trigger",
      "a durable session cannot regenerate an answer it already gave; send a new message",
    );
  }
  const template = api.agents.template(agentId.data);
  const sessionId = body.id;
  const tenant = c.var.tenant;
  const answers = chatApprovalResponses(body.messages.at(-1)?.parts ?? []);
  if (body.messages.at(-1)?.role === "assistant" && answers.length > 0) {
    await checkExistingSession(api, sessionId, template.id, tenant);
    return continueAfterApproval(api, c, sessionId, answers);
  }
  const { messageId, text } = userText(body);
  await checkExistingSession(api, sessionId, template.id, tenant);
  let accepted: { result(): Promise<TurnResult> };
  try {
    accepted = await api.sessions.submit({ template, sessionId, tenant }, text, messageId);
  } catch (error) {
    throw refusal(error, sessionId);
  }
  const chunks = turnChunks(api, sessionId, messageId, accepted.result(), c.req.raw.signal);
  return createUIMessageStreamResponse({
    stream: ReadableStream.from(chunks),
    keepAliveMs: 15_000,
  });
}

/**
 * The answer `useChat` sends after `addToolApprovalResponse`: the assistant message, its tool
 * parts answered. The answers go to the session (who: the caller), and the turn that waited is
 * streamed on from the decision, into the same assistant message.
 */
async function continueAfterApproval(
  api: ApiContext,
  c: Context<ApiEnv>,
  sessionId: string,
  answers: Parameters<typeof deliverChatApprovals>[3],
): Promise<Response> {
  const approval = await deliverChatApprovals(api, c, sessionId, answers);
  let result: Promise<TurnResult>;
  try {
    const turn = runningTurnOf(
      (await api.sessions.events(sessionId, 0)).events,
      approval.messageId,
    );
    result = (await api.sessions.submitTo(sessionId, turn, approval.messageId)).result();
  } catch (error) {
    throw toApiError(error, sessionId);
  }
  const chunks = turnChunks(api, sessionId, approval.messageId, result, c.req.raw.signal, {
    after: approval.approvalId,
  });
  return createUIMessageStreamResponse({
    stream: ReadableStream.from(chunks),
    keepAliveMs: 15_000,
  });
}

/** The text of the turn answering `messageId` (sending it again answers with that turn). */
function runningTurnOf(events: readonly LoggedEvent[], messageId: string): string {
  for (const { event } of events) {
    if (event.type === "turn_started" && event.messageId === messageId) return event.text;
  }
  throw new ApiError(409, "turn_gone", `the turn of message ${messageId} is no longer kept`);
}

/**
 * Whether the session still waits for this approval. A viewer replaying a turn (a reload, a
 * slow reader) can reach a request already decided (or timed out): the stream then goes on to
 * the decision instead of stopping at a question nobody can answer any more.
 */
async function stillPending(
  api: ApiContext,
  sessionId: string,
  approvalId: string,
): Promise<boolean> {
  try {
    const { pending } = await api.sessions.approvals(sessionId);
    return pending.some((record) => record.approvalId === approvalId);
  } catch {
    return true;
  }
}

/**
 * One turn as UI message-stream chunks: its live events from its start, then its result. The
 * stream stops when the turn waits for a person's approval (the answer's request continues it,
 * `resume.after` naming that approval: what came before it was streamed already).
 */
export async function* turnChunks(
  api: ApiContext,
  sessionId: string,
  messageId: string,
  result: Promise<TurnResult>,
  gone: AbortSignal,
  resume?: { after: string },
): AsyncGenerator<UIMessageChunk> {
  const chunker = new TurnChunker();
  yield* chunker.start(`${sessionId}:${messageId}`);
  let replaying = resume !== undefined;
  try {
    for await (const watched of watchTurn({
      hub: api.hub,
      sessionId,
      messageId,
      result,
      signal: gone,
    })) {
      if (watched.type === "finished") {
        yield* chunker.finish(watched.result, watched.complete && !replaying);
        continue;
      }
      const { item } = watched.event;
      const chunks = chunker.fromLive(item);
      const event = item.type === "session" ? item.event : undefined;
      if (replaying) {
        if (event?.type !== "approval_decided" || event.approvalId !== resume?.after) continue;
        replaying = false;
        chunker.resumeAfter();
      }
      yield* chunks;
      if (
        event?.type === "approval_requested" &&
        (await stillPending(api, sessionId, event.approvalId))
      ) {
        yield* chunker.pause();
        return;
      }
    }
  } catch (error) {
    yield { type: "error", errorText: toApiError(error, sessionId).message };
  }
}
