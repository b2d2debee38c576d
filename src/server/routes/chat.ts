import type { ServerResponse } from "node:http";
import { WorkflowNotFoundError } from "@temporalio/client";
import { pipeUIMessageStreamToResponse, type UIMessageChunk } from "ai";
import { z } from "zod";
import {
  agentIdKey,
  agentIdSchema,
  sessionIdSchema,
  MAX_MESSAGE_CHARS,
  type TurnResult,
} from "../../session/index.ts";
import type { ApiContext } from "../api-context.ts";
import { ApiError, toApiError } from "../api-error.ts";
import { readJsonBody } from "../http-io.ts";
import type { RouteContext } from "../router.ts";
import { watchTurn } from "../../client/index.ts";
import { TurnChunker } from "../ui-chunks.ts";
import { invalidBody } from "../validation.ts";

/** The body `useChat` (DefaultChatTransport) sends: the chat id is the session id. */
const chatBodySchema = z.looseObject({
  id: sessionIdSchema,
  messages: z
    .array(
      z.looseObject({
        id: z.string().min(1, "every message needs an id").max(200),
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
      "messages: the last message must be the user's new message",
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

/** A chat may continue only the session of its own agent, and only while it runs. */
async function checkExistingSession(
  api: ApiContext,
  sessionId: string,
  agentId: string,
): Promise<void> {
  try {
    const description = await api.sessions.handle(sessionId).describe();
    if (description.status.name !== "RUNNING") {
      throw new ApiError(
        409,
        "session_ended",
        `session "${sessionId}" has ended; use a new chat id`,
      );
    }
    const owner = description.typedSearchAttributes.get(agentIdKey);
    if (owner !== undefined && owner !== agentId) {
      throw new ApiError(
        409,
        "agent_mismatch",
        `session "${sessionId}" belongs to agent "${owner}", not "${agentId}"`,
      );
    }
  } catch (error) {
    if (error instanceof WorkflowNotFoundError) return;
    throw toApiError(error, sessionId);
  }
}

/**
 * `POST /api/chat/:agentId`: sends the chat's new message to the session named by the body's
 * `id` (update-with-start: the session is created on first use) and streams the turn back in
 * the AI SDK UI message-stream protocol while it runs. The turn is durable: a client that goes
 * away does not stop it, and sending the same message id again answers with the same turn.
 */
export async function postChat(
  api: ApiContext,
  { request, response, params }: RouteContext,
): Promise<void> {
  const agentId = agentIdSchema.safeParse(params["agentId"]);
  if (!agentId.success)
    throw new ApiError(404, "unknown_agent", `no agent "${params["agentId"] ?? ""}"`);
  const parsed = chatBodySchema.safeParse(await readJsonBody(request));
  if (!parsed.success) throw invalidBody(parsed.error);
  const body = parsed.data;
  if (body.trigger === "regenerate-message") {
    throw new ApiError(
      400,
      "unsupported_trigger",
      "a durable session cannot regenerate an answer it already gave; send a new message",
    );
  }
  const { messageId, text } = userText(body);
  const template = api.agents.template(agentId.data);
  const sessionId = body.id;
  await checkExistingSession(api, sessionId, template.id);
  let accepted: { result(): Promise<TurnResult> };
  try {
    accepted = await api.sessions.submit({ template, sessionId }, text, messageId);
  } catch (error) {
    throw toApiError(error, sessionId);
  }
  await streamTurn(api, response, sessionId, messageId, accepted.result());
}

async function streamTurn(
  api: ApiContext,
  response: ServerResponse,
  sessionId: string,
  messageId: string,
  result: Promise<TurnResult>,
): Promise<void> {
  const gone = new AbortController();
  response.on("close", () => {
    gone.abort();
  });
  await pipeUIMessageStreamToResponse({
    response,
    stream: ReadableStream.from(turnChunks(api, sessionId, messageId, result, gone.signal)),
    keepAliveMs: 15_000,
  });
}

async function* turnChunks(
  api: ApiContext,
  sessionId: string,
  messageId: string,
  result: Promise<TurnResult>,
  gone: AbortSignal,
): AsyncGenerator<UIMessageChunk> {
  const chunker = new TurnChunker();
  yield* chunker.start(`${sessionId}:${messageId}`);
  try {
    for await (const watched of watchTurn({
      hub: api.hub,
      sessionId,
      messageId,
      result,
      signal: gone,
    })) {
      if (watched.type === "live") yield* chunker.fromLive(watched.event.item);
      else yield* chunker.finish(watched.result, watched.complete);
    }
  } catch (error) {
    yield { type: "error", errorText: toApiError(error, sessionId).message };
  }
}
