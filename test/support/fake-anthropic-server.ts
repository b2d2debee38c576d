import { createServer } from "node:http";
import type { IncomingHttpHeaders, IncomingMessage, ServerResponse } from "node:http";
import type { FakeReply } from "./fake-openai-server.ts";
import { listenFake, readBody, sendJson, tokens } from "./fake-http.ts";

/** The parts of an Anthropic Messages request body the tests look at. */
export interface MessagesRequest {
  model: string;
  max_tokens?: number;
  messages: { role: string; content: unknown }[];
  system?: unknown;
  tools?: { name: string; description?: string; input_schema?: unknown }[];
  tool_choice?: unknown;
  thinking?: unknown;
  stream?: boolean;
  [field: string]: unknown;
}

export interface RecordedAnthropicRequest {
  method: string;
  path: string;
  headers: IncomingHttpHeaders;
  body: MessagesRequest;
  reply: FakeReply | undefined;
}

export interface FakeAnthropicServer {
  /** `http://127.0.0.1:<port>`; the provider's base URL is this plus `/v1`. */
  url: string;
  requests: RecordedAnthropicRequest[];
  enqueue(...replies: FakeReply[]): void;
  pendingReplies(): number;
  close(): Promise<void>;
}

/** Tool names a request offered the model, in order. */
export function offeredAnthropicTools(request: RecordedAnthropicRequest): string[] {
  return (request.body.tools ?? []).map((tool) => tool.name);
}

type Block =
  | { type: "thinking"; thinking: string }
  | { type: "text"; text: string }
  | { type: "tool_use"; id: string; name: string; input: unknown };

/**
 * A local HTTP server speaking Anthropic's Messages API on 127.0.0.1: `POST /v1/messages` answers
 * one message as JSON, or with `stream: true` as its named server-sent events (`message_start`,
 * a `content_block_start` / `_delta` / `_stop` run per block — thinking with its signature, text a
 * word per delta, a tool call's JSON input in two halves — then `message_delta` with the stop
 * reason and usage, and `message_stop`). Errors use Anthropic's shape. Each request consumes the
 * next reply; with none left it answers 400, so an under-scripted test fails at once.
 */
export async function startFakeAnthropicServer(
  replies: readonly FakeReply[] = [],
): Promise<FakeAnthropicServer> {
  const queue: FakeReply[] = [...replies];
  const requests: RecordedAnthropicRequest[] = [];
  let messages = 0;

  const server = createServer((request, response) => {
    void handle(request, response);
  });

  async function handle(request: IncomingMessage, response: ServerResponse): Promise<void> {
    const path = new URL(request.url ?? "/", "http://127.0.0.1").pathname;
    if (request.method !== "POST" || path !== "/v1/messages") {
      sendError(response, 404, `no route ${request.method ?? "?"} ${path}`, "not_found_error");
      return;
    }
    let body: MessagesRequest;
    try {
      body = JSON.parse(await readBody(request)) as MessagesRequest;
    } catch {
      sendError(response, 400, "the request body is not JSON", "invalid_request_error");
      return;
    }
    const reply = queue.shift();
    requests.push({ method: request.method, path, headers: request.headers, body, reply });
    if (reply === undefined) {
      sendError(
        response,
        400,
        `fake Anthropic server: no scripted reply left for request ${requests.length}`,
        "invalid_request_error",
      );
      return;
    }
    if ("status" in reply) {
      if (reply.body !== undefined) sendJson(response, reply.status, reply.body);
      else {
        const type = reply.status === 429 ? "rate_limit_error" : "invalid_request_error";
        sendError(
          response,
          reply.status,
          `fake Anthropic server: scripted HTTP ${reply.status}`,
          type,
        );
      }
      return;
    }
    messages += 1;
    const blocks: Block[] = [];
    if (reply.reasoning !== undefined) blocks.push({ type: "thinking", thinking: reply.reasoning });
    if ("toolCall" in reply) {
      const input =
        typeof reply.toolCall.arguments === "string"
          ? (JSON.parse(reply.toolCall.arguments) as unknown)
          : reply.toolCall.arguments;
      blocks.push({ type: "tool_use", id: `toolu_${messages}`, name: reply.toolCall.name, input });
    } else {
      blocks.push({ type: "text", text: reply.text });
    }
    const stopReason = "toolCall" in reply ? "tool_use" : "end_turn";
    const usage = { input_tokens: tokens(body.messages), output_tokens: tokens(blocks) };
    const message = {
      id: `msg_fake_${messages}`,
      type: "message",
      role: "assistant",
      model: body.model,
    };
    if (body.stream !== true) {
      const content = blocks.map((block) =>
        block.type === "thinking" ? { ...block, signature: "fake-signature" } : block,
      );
      sendJson(response, 200, {
        ...message,
        content,
        stop_reason: stopReason,
        stop_sequence: null,
        usage,
      });
      return;
    }
    response.writeHead(200, { "content-type": "text/event-stream", "cache-control": "no-cache" });
    const send = (event: string, data: Record<string, unknown>): void => {
      response.write(`event: ${event}\ndata: ${JSON.stringify({ type: event, ...data })}\n\n`);
    };
    send("message_start", {
      message: {
        ...message,
        content: [],
        stop_reason: null,
        stop_sequence: null,
        usage: { input_tokens: usage.input_tokens, output_tokens: 1 },
      },
    });
    blocks.forEach((block, index) => {
      if (block.type === "thinking") {
        send("content_block_start", {
          index,
          content_block: { type: "thinking", thinking: "", signature: "" },
        });
        send("content_block_delta", {
          index,
          delta: { type: "thinking_delta", thinking: block.thinking },
        });
        send("content_block_delta", {
          index,
          delta: { type: "signature_delta", signature: "fake-signature" },
        });
      } else if (block.type === "text") {
        send("content_block_start", { index, content_block: { type: "text", text: "" } });
        for (const word of block.text.match(/\s*\S+\s*/g) ?? []) {
          send("content_block_delta", { index, delta: { type: "text_delta", text: word } });
        }
      } else {
        send("content_block_start", {
          index,
          content_block: { type: "tool_use", id: block.id, name: block.name, input: {} },
        });
        const json = JSON.stringify(block.input);
        const half = Math.ceil(json.length / 2);
        for (const part of [json.slice(0, half), json.slice(half)]) {
          send("content_block_delta", {
            index,
            delta: { type: "input_json_delta", partial_json: part },
          });
        }
      }
      send("content_block_stop", { index });
    });
    send("message_delta", {
      delta: { stop_reason: stopReason, stop_sequence: null },
      usage: { output_tokens: usage.output_tokens },
    });
    send("message_stop", {});
    response.end();
  }

  return listenFake(server, requests, queue);
}

function sendError(response: ServerResponse, status: number, message: string, type: string): void {
  sendJson(response, status, { type: "error", error: { type, message } });
}
