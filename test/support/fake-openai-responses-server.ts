import { createServer } from "node:http";
import type { IncomingHttpHeaders, IncomingMessage, ServerResponse } from "node:http";
import type { FakeReply } from "./fake-openai-server.ts";
import { listenFake, readBody, tokens } from "./fake-http.ts";

/** The parts of an OpenAI Responses request body the tests look at. */
export interface ResponsesRequest {
  model: string;
  input: unknown[];
  instructions?: string;
  tools?: { type: string; name?: string }[];
  reasoning?: unknown;
  stream?: boolean;
  [field: string]: unknown;
}

export interface RecordedResponsesRequest {
  method: string;
  path: string;
  headers: IncomingHttpHeaders;
  body: ResponsesRequest;
  reply: FakeReply | undefined;
}

export interface FakeResponsesServer {
  /** `http://127.0.0.1:<port>`; the provider's base URL is this plus `/v1`. */
  url: string;
  requests: RecordedResponsesRequest[];
  enqueue(...replies: FakeReply[]): void;
  close(): Promise<void>;
}

/** Function tools a request offered the model, in order. */
export function offeredResponsesTools(request: RecordedResponsesRequest): string[] {
  return (request.body.tools ?? []).flatMap((tool) =>
    tool.type === "function" && tool.name !== undefined ? [tool.name] : [],
  );
}

/**
 * A local HTTP server speaking OpenAI's Responses API, the one `@ai-sdk/openai` uses by default:
 * `POST /v1/responses` with `stream: true` answers with its server-sent events
 * (`response.created`, `response.output_item.added`, text a word per `response.output_text.delta`
 * or a function call's arguments in two `response.function_call_arguments.delta`,
 * `response.output_item.done`, `response.completed` with usage). Each request consumes the next
 * reply; with none left it answers 400, so an under-scripted test fails at once.
 */
export async function startFakeResponsesServer(
  replies: readonly FakeReply[] = [],
): Promise<FakeResponsesServer> {
  const queue: FakeReply[] = [...replies];
  const requests: RecordedResponsesRequest[] = [];
  let responses = 0;

  const server = createServer((request, response) => {
    void handle(request, response);
  });

  async function handle(request: IncomingMessage, response: ServerResponse): Promise<void> {
    const path = new URL(request.url ?? "/", "http://127.0.0.1").pathname;
    if (request.method !== "POST" || path !== "/v1/responses") {
      sendError(response, 404, `no route ${request.method ?? "?"} ${path}`);
      return;
    }
    let body: ResponsesRequest;
    try {
      body = JSON.parse(await readBody(request)) as ResponsesRequest;
    } catch {
      sendError(response, 400, "the request body is not JSON");
      return;
    }
    const reply = queue.shift();
    requests.push({ method: request.method, path, headers: request.headers, body, reply });
    if (reply === undefined || "status" in reply || body.stream !== true) {
      const status = reply !== undefined && "status" in reply ? reply.status : 400;
      sendError(
        response,
        status,
        `fake Responses server: no streamed reply for request ${requests.length}`,
      );
      return;
    }
    responses += 1;
    const id = `resp_fake_${responses}`;
    const created = { id, created_at: Math.floor(Date.now() / 1000), model: body.model };
    response.writeHead(200, { "content-type": "text/event-stream", "cache-control": "no-cache" });
    let sequence = 0;
    const send = (type: string, data: Record<string, unknown>): void => {
      sequence += 1;
      response.write(
        `event: ${type}\ndata: ${JSON.stringify({ type, sequence_number: sequence, ...data })}\n\n`,
      );
    };
    send("response.created", { response: created });
    if ("toolCall" in reply) {
      const args =
        typeof reply.toolCall.arguments === "string"
          ? reply.toolCall.arguments
          : JSON.stringify(reply.toolCall.arguments);
      const item = {
        type: "function_call",
        id: `fc_${responses}`,
        call_id: `call_${responses}`,
        name: reply.toolCall.name,
      };
      send("response.output_item.added", {
        output_index: 0,
        item: { ...item, arguments: "", status: "in_progress" },
      });
      const half = Math.ceil(args.length / 2);
      for (const delta of [args.slice(0, half), args.slice(half)]) {
        send("response.function_call_arguments.delta", {
          item_id: item.id,
          output_index: 0,
          delta,
        });
      }
      send("response.output_item.done", {
        output_index: 0,
        item: { ...item, arguments: args, status: "completed" },
      });
    } else {
      const item = { type: "message", id: `msg_${responses}`, role: "assistant" };
      send("response.output_item.added", { output_index: 0, item: { ...item, content: [] } });
      for (const delta of reply.text.match(/\s*\S+\s*/g) ?? []) {
        send("response.output_text.delta", {
          item_id: item.id,
          output_index: 0,
          content_index: 0,
          delta,
        });
      }
      send("response.output_item.done", {
        output_index: 0,
        item: {
          ...item,
          status: "completed",
          content: [{ type: "output_text", text: reply.text, annotations: [] }],
        },
      });
    }
    const input = tokens(body.input);
    const output = tokens(reply);
    send("response.completed", {
      response: {
        ...created,
        status: "completed",
        incomplete_details: null,
        usage: { input_tokens: input, output_tokens: output, total_tokens: input + output },
      },
    });
    response.end();
  }

  return listenFake(server, requests, queue);
}

function sendError(response: ServerResponse, status: number, message: string): void {
  response.writeHead(status, { "content-type": "application/json" });
  response.end(JSON.stringify({ error: { message, type: "invalid_request_error" } }));
}
