import { createServer } from "node:http";
import type { IncomingHttpHeaders, IncomingMessage, ServerResponse } from "node:http";
import type { FakeReply } from "./fake-openai-server.ts";
import { listenFake, readBody, sendJson, tokens } from "./fake-http.ts";

/** The parts of a Gemini generateContent request body the tests look at. */
export interface GenerateContentRequest {
  contents: { role: string; parts: Record<string, unknown>[] }[];
  systemInstruction?: { parts: { text: string }[] };
  generationConfig?: Record<string, unknown>;
  safetySettings?: { category: string; threshold: string }[];
  tools?: {
    functionDeclarations?: { name: string; description?: string; parameters?: unknown }[];
    googleSearch?: unknown;
  }[];
  toolConfig?: { functionCallingConfig?: { mode?: string; allowedFunctionNames?: string[] } };
  [field: string]: unknown;
}

export interface RecordedGeminiRequest {
  method: string;
  /** Path and query, e.g. `/v1beta/models/m:streamGenerateContent?alt=sse`. */
  path: string;
  headers: IncomingHttpHeaders;
  body: GenerateContentRequest;
  reply: FakeReply | undefined;
}

export interface FakeGeminiServer {
  /** `http://127.0.0.1:<port>`; the provider's base URL is this plus `/v1beta`. */
  url: string;
  requests: RecordedGeminiRequest[];
  enqueue(...replies: FakeReply[]): void;
  pendingReplies(): number;
  close(): Promise<void>;
}

/** Function names a request offered the model, in order. */
export function offeredFunctions(request: RecordedGeminiRequest): string[] {
  return (request.body.tools ?? []).flatMap((tool) =>
    (tool.functionDeclarations ?? []).map((declaration) => declaration.name),
  );
}

const route = /^\/v1beta\/models\/([^/:]+):(generateContent|streamGenerateContent)$/;

/**
 * A local HTTP server speaking the Gemini API's generateContent protocol on 127.0.0.1:
 * `POST /v1beta/models/<model>:generateContent` answers one JSON response, and
 * `:streamGenerateContent?alt=sse` the same content as server-sent events, a word of text per
 * event, a thought part first when the reply has reasoning, a function call whole in one part (as
 * Gemini sends them), the finish reason and usage metadata in the last event. Errors use Google's
 * shape (`{"error": {"code", "message", "status"}}`). Each request consumes the next reply; with
 * none left it answers 400, so an under-scripted test fails at once.
 */
export async function startFakeGeminiServer(
  replies: readonly FakeReply[] = [],
): Promise<FakeGeminiServer> {
  const queue: FakeReply[] = [...replies];
  const requests: RecordedGeminiRequest[] = [];

  const server = createServer((request, response) => {
    void handle(request, response);
  });

  async function handle(request: IncomingMessage, response: ServerResponse): Promise<void> {
    const url = new URL(request.url ?? "/", "http://127.0.0.1");
    const match = route.exec(url.pathname);
    if (request.method !== "POST" || match === null) {
      sendError(response, 404, `no route ${request.method ?? "?"} ${url.pathname}`, "NOT_FOUND");
      return;
    }
    const streaming = match[2] === "streamGenerateContent";
    if (streaming && url.searchParams.get("alt") !== "sse") {
      sendError(
        response,
        400,
        "this fake streams server-sent events only (alt=sse)",
        "INVALID_ARGUMENT",
      );
      return;
    }
    let body: GenerateContentRequest;
    try {
      body = JSON.parse(await readBody(request)) as GenerateContentRequest;
    } catch {
      sendError(response, 400, "the request body is not JSON", "INVALID_ARGUMENT");
      return;
    }
    const reply = queue.shift();
    requests.push({
      method: request.method,
      path: `${url.pathname}${url.search}`,
      headers: request.headers,
      body,
      reply,
    });
    if (reply === undefined) {
      sendError(
        response,
        400,
        `fake Gemini server: no scripted reply left for request ${requests.length}`,
        "FAILED_PRECONDITION",
      );
      return;
    }
    if ("status" in reply) {
      const status = reply.status === 429 ? "RESOURCE_EXHAUSTED" : "INVALID_ARGUMENT";
      if (reply.body !== undefined) sendJson(response, reply.status, reply.body);
      else
        sendError(
          response,
          reply.status,
          `fake Gemini server: scripted HTTP ${reply.status}`,
          status,
        );
      return;
    }
    const usage = {
      promptTokenCount: tokens(body.contents),
      candidatesTokenCount: tokens("text" in reply ? reply.text : reply.toolCall),
    };
    const usageMetadata = {
      ...usage,
      totalTokenCount: usage.promptTokenCount + usage.candidatesTokenCount,
    };
    const parts = partsOf(reply);
    if (!streaming) {
      sendJson(response, 200, {
        candidates: [{ content: { role: "model", parts }, finishReason: "STOP", index: 0 }],
        usageMetadata,
        modelVersion: match[1],
      });
      return;
    }
    response.writeHead(200, { "content-type": "text/event-stream", "cache-control": "no-cache" });
    const events = parts.flatMap((part) =>
      typeof part.text === "string" && part.thought !== true
        ? (part.text.match(/\s*\S+\s*/g) ?? []).map((word) => ({ text: word }))
        : [part],
    );
    events.forEach((part, index) => {
      const last = index === events.length - 1;
      const chunk = {
        candidates: [
          {
            content: { role: "model", parts: [part] },
            ...(last ? { finishReason: "STOP" } : {}),
            index: 0,
          },
        ],
        ...(last ? { usageMetadata } : {}),
        modelVersion: match[1],
      };
      response.write(`data: ${JSON.stringify(chunk)}\r\n\r\n`);
    });
    response.end();
  }

  return listenFake(server, requests, queue);
}

function partsOf(reply: Exclude<FakeReply, { status: number }>): Record<string, unknown>[] {
  const thought = reply.reasoning === undefined ? [] : [{ text: reply.reasoning, thought: true }];
  if ("toolCall" in reply) {
    const args =
      typeof reply.toolCall.arguments === "string"
        ? (JSON.parse(reply.toolCall.arguments) as unknown)
        : reply.toolCall.arguments;
    return [...thought, { functionCall: { name: reply.toolCall.name, args } }];
  }
  return [...thought, { text: reply.text }];
}

function sendError(response: ServerResponse, code: number, message: string, status: string): void {
  sendJson(response, code, { error: { code, message, status } });
}
