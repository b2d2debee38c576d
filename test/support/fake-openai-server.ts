import { createServer } from "node:http";
import type { IncomingHttpHeaders, IncomingMessage, ServerResponse } from "node:http";
import { setTimeout as sleep } from "node:timers/promises";
import type { ProviderConfig } from "../../src/llm/provider-config.ts";
import { listenFake, readBody, sendJson, tokens } from "./fake-http.ts";

/** What the server answers to the next chat-completions request, in arrival order. */
export type FakeReply =
  | {
      toolCall: { name: string; arguments: Record<string, unknown> | string };
      /** Reasoning streamed before the call, in the flavor's field. */
      reasoning?: string;
    }
  | {
      text: string;
      /** Reasoning streamed before the text, in the flavor's field. */
      reasoning?: string;
      /** Streaming only: wait this long before each word (a model that streams slowly). */
      wordDelayMs?: number;
      /** Streaming only: cut the connection after this many words (a provider dropping mid-stream). */
      dropAfterWords?: number;
    }
  | { status: 400 | 429 | 500; body?: unknown };

/** The parts of an OpenAI chat-completions request body the tests look at. */
export interface ChatCompletionRequest {
  model: string;
  messages: {
    role: string;
    content?: unknown;
    tool_calls?: { id: string; type: string; function: { name: string; arguments: string } }[];
    tool_call_id?: string;
  }[];
  tools?: {
    type: string;
    function: { name: string; description?: string; parameters?: unknown };
  }[];
  tool_choice?: unknown;
  stream?: boolean;
  stream_options?: { include_usage?: boolean };
  [field: string]: unknown;
}

export interface RecordedRequest {
  method: string;
  path: string;
  headers: IncomingHttpHeaders;
  body: ChatCompletionRequest;
  /** What the server answered; `undefined` when no scripted reply was left. */
  reply: FakeReply | undefined;
  /** Streaming answers: words written, and when the client closed the connection before the end. */
  stream?: { words: number; closedEarlyAt?: number };
}

export interface FakeOpenAIServer {
  /** `http://127.0.0.1:<port>`; the provider's base URL is this plus `/v1`. */
  url: string;
  /** Every chat-completions request received, in order. */
  requests: RecordedRequest[];
  /** Appends replies to the queue. */
  enqueue(...replies: FakeReply[]): void;
  /** Replies not consumed yet. */
  pendingReplies(): number;
  close(): Promise<void>;
}

/**
 * Providers that speak OpenAI's chat-completions protocol, each with its own quirks in streaming:
 * where reasoning arrives (`reasoning_content` for DeepSeek, `reasoning` for Groq and Cerebras)
 * and where usage comes (a last chunk when asked for; Groq's `x_groq.usage` on the final chunk;
 * Cerebras always on the final chunk, with its `time_info`).
 */
export type ChatCompletionsFlavor = "openai" | "groq" | "deepseek" | "cerebras";

export interface FakeOpenAIServerOptions {
  flavor?: ChatCompletionsFlavor;
}

/** A worker's providers: the scripted model, and `openai-compatible` answered by this server. */
export function fakeProviderConfig(server: { url: string }, apiKey = "test-key"): ProviderConfig {
  return { scripted: {}, openaiCompatible: { baseURL: `${server.url}/v1`, apiKey } };
}

/** Tool names a request offered the model, in order. */
export function offeredTools(request: RecordedRequest): string[] {
  return (request.body.tools ?? []).map((tool) => tool.function.name);
}

/**
 * A local HTTP server speaking OpenAI's chat-completions protocol on 127.0.0.1 and a free port:
 * `POST /v1/chat/completions` answers with JSON, or with server-sent events when the request has
 * `stream: true` (usage in a last chunk when `stream_options.include_usage` is set). Each request
 * consumes the next scripted reply; with none left it answers 400 naming the request, so a test
 * that under-scripts fails at once instead of being retried.
 */
export async function startFakeOpenAIServer(
  replies: readonly FakeReply[] = [],
  options: FakeOpenAIServerOptions = {},
): Promise<FakeOpenAIServer> {
  const flavor = options.flavor ?? "openai";
  const queue: FakeReply[] = [...replies];
  const requests: RecordedRequest[] = [];
  let completions = 0;

  const server = createServer((request, response) => {
    void handle(request, response);
  });

  async function handle(request: IncomingMessage, response: ServerResponse): Promise<void> {
    const path = new URL(request.url ?? "/", "http://127.0.0.1").pathname;
    if (request.method !== "POST" || path !== "/v1/chat/completions") {
      sendError(response, 404, `no route ${request.method ?? "?"} ${path}`, "not_found");
      return;
    }
    let body: ChatCompletionRequest;
    try {
      body = JSON.parse(await readBody(request)) as ChatCompletionRequest;
    } catch {
      sendError(response, 400, "the request body is not JSON", "invalid_request_error");
      return;
    }
    const reply = queue.shift();
    const recorded: RecordedRequest = {
      method: request.method,
      path,
      headers: request.headers,
      body,
      reply,
    };
    requests.push(recorded);
    if (reply === undefined) {
      sendError(
        response,
        400,
        `fake OpenAI server: no scripted reply left for request ${requests.length}`,
        "fake_script_exhausted",
      );
      return;
    }
    if ("status" in reply) {
      const fallback = {
        error: {
          message: `fake OpenAI server: scripted HTTP ${reply.status}`,
          type: reply.status === 429 ? "rate_limit_exceeded" : "invalid_request_error",
        },
      };
      sendJson(response, reply.status, reply.body ?? fallback);
      return;
    }
    completions += 1;
    const completion = toCompletion(reply, completions, body);
    if (body.stream === true) {
      const progress: { words: number; closedEarlyAt?: number } = { words: 0 };
      recorded.stream = progress;
      // A client that aborts its request closes the connection before the answer's end.
      response.on("close", () => {
        if (!response.writableEnded) progress.closedEarlyAt = Date.now();
      });
      await writeStream(
        response,
        progress,
        completion,
        body.stream_options?.include_usage === true,
        "text" in reply ? reply : {},
        flavor,
      );
    } else {
      sendJson(response, 200, completionBody(completion));
    }
  }

  return listenFake(server, requests, queue);
}

interface Completion {
  id: string;
  model: string;
  created: number;
  text: string | undefined;
  reasoning: string | undefined;
  toolCall: { id: string; name: string; arguments: string } | undefined;
  usage: { prompt_tokens: number; completion_tokens: number; total_tokens: number };
}

function toCompletion(
  reply: Exclude<FakeReply, { status: number }>,
  n: number,
  request: ChatCompletionRequest,
): Completion {
  const toolCall =
    "toolCall" in reply
      ? {
          id: `call_${n}`,
          name: reply.toolCall.name,
          arguments:
            typeof reply.toolCall.arguments === "string"
              ? reply.toolCall.arguments
              : JSON.stringify(reply.toolCall.arguments),
        }
      : undefined;
  const text = "text" in reply ? reply.text : undefined;
  const prompt = tokens(request.messages);
  const output = tokens(text ?? toolCall);
  return {
    id: `chatcmpl-fake-${n}`,
    model: request.model,
    created: Math.floor(Date.now() / 1000),
    text,
    reasoning: reply.reasoning,
    toolCall,
    usage: { prompt_tokens: prompt, completion_tokens: output, total_tokens: prompt + output },
  };
}

function finishReason(completion: Completion): "tool_calls" | "stop" {
  return completion.toolCall === undefined ? "stop" : "tool_calls";
}

function completionBody(completion: Completion) {
  const { toolCall } = completion;
  return {
    id: completion.id,
    object: "chat.completion",
    created: completion.created,
    model: completion.model,
    choices: [
      {
        index: 0,
        message: {
          role: "assistant",
          content: completion.text ?? null,
          ...(toolCall === undefined
            ? {}
            : {
                tool_calls: [
                  {
                    id: toolCall.id,
                    type: "function",
                    function: { name: toolCall.name, arguments: toolCall.arguments },
                  },
                ],
              }),
        },
        finish_reason: finishReason(completion),
      },
    ],
    usage: completion.usage,
  };
}

/** Text arrives a word at a time; a tool call's arguments in two halves after its name. */
async function writeStream(
  response: ServerResponse,
  progress: { words: number; closedEarlyAt?: number },
  completion: Completion,
  includeUsage: boolean,
  pacing: { wordDelayMs?: number; dropAfterWords?: number },
  flavor: ChatCompletionsFlavor,
): Promise<void> {
  response.writeHead(200, {
    "content-type": "text/event-stream",
    "cache-control": "no-cache",
    connection: "keep-alive",
  });
  const chunk = (choices: unknown[], extra: Record<string, unknown> = {}) => {
    const data = {
      id: completion.id,
      object: "chat.completion.chunk",
      created: completion.created,
      model: completion.model,
      choices,
      ...extra,
    };
    response.write(`data: ${JSON.stringify(data)}\n\n`);
  };
  const delta = (value: Record<string, unknown>) => {
    chunk([{ index: 0, delta: value, finish_reason: null }]);
  };

  delta({ role: "assistant", content: "" });
  const reasoningField = flavor === "deepseek" ? "reasoning_content" : "reasoning";
  for (const piece of completion.reasoning?.match(/\s*\S+\s*/g) ?? []) {
    delta({ [reasoningField]: piece });
  }
  let words = 0;
  for (const piece of completion.text?.match(/\s*\S+\s*/g) ?? []) {
    if (pacing.dropAfterWords !== undefined && words >= pacing.dropAfterWords) {
      // Let what was written reach the client first, as a connection lost mid-answer would.
      await sleep(200);
      response.destroy();
      return;
    }
    if (pacing.wordDelayMs !== undefined) await sleep(pacing.wordDelayMs);
    // The client went away: a real provider stops generating too.
    if (progress.closedEarlyAt !== undefined) return;
    delta({ content: piece });
    words++;
    progress.words = words;
  }
  const { toolCall } = completion;
  if (toolCall !== undefined) {
    delta({
      tool_calls: [
        {
          index: 0,
          id: toolCall.id,
          type: "function",
          function: { name: toolCall.name, arguments: "" },
        },
      ],
    });
    const half = Math.ceil(toolCall.arguments.length / 2);
    for (const part of [toolCall.arguments.slice(0, half), toolCall.arguments.slice(half)]) {
      delta({ tool_calls: [{ index: 0, function: { arguments: part } }] });
    }
  }
  const finish = [{ index: 0, delta: {}, finish_reason: finishReason(completion) }];
  if (flavor === "groq") {
    chunk(finish, { x_groq: { id: `req_${completion.id}`, usage: completion.usage } });
    response.end("data: [DONE]\n\n");
    return;
  }
  if (flavor === "cerebras") {
    chunk(finish, { usage: completion.usage, time_info: { queue_time: 0.0001, total_time: 0.01 } });
    response.end("data: [DONE]\n\n");
    return;
  }
  chunk(finish);
  const usage =
    flavor === "deepseek"
      ? {
          ...completion.usage,
          prompt_cache_hit_tokens: 0,
          prompt_cache_miss_tokens: completion.usage.prompt_tokens,
        }
      : completion.usage;
  if (includeUsage) chunk([], { usage });
  response.end("data: [DONE]\n\n");
}

function sendError(response: ServerResponse, status: number, message: string, type: string): void {
  sendJson(response, status, { error: { message, type } });
}
