import assert from "node:assert/strict";
import { after, before, describe, it } from "node:test";
import type { ProviderConfig } from "../../src/llm/provider-config.ts";
import { workflowIdFor, type TurnResult } from "../../src/session/index.ts";
import {
  startFakeGeminiServer,
  offeredFunctions,
  type FakeGeminiServer,
} from "../support/fake-gemini-server.ts";
import {
  offeredTools,
  startFakeOpenAIServer,
  type ChatCompletionsFlavor,
  type FakeOpenAIServer,
  type FakeReply,
} from "../support/fake-openai-server.ts";
import {
  offeredAnthropicTools,
  startFakeAnthropicServer,
  type FakeAnthropicServer,
} from "../support/fake-anthropic-server.ts";
import {
  offeredResponsesTools,
  startFakeResponsesServer,
  type FakeResponsesServer,
} from "../support/fake-openai-responses-server.ts";
import { activityAttempts, fetchHistory } from "../support/history.ts";
import { shippedAgent } from "../support/shipped-agents.ts";
import { createTestEnv, uniqueId, type TestEnv } from "../support/temporal-env.ts";

// Every provider AgentDock templates select, end to end: a real workflow on the dev server, the
// real AI SDK provider package in the worker, and a local server speaking that provider's wire
// protocol. Groq, DeepSeek and Cerebras speak OpenAI's chat completions, so they share the OpenAI
// fake in their own flavor (where reasoning and usage arrive); Gemini has a fake of its own.

const apiKey = "test-key-not-secret";
const reasoner = shippedAgent("cognitive-reasoner");

function evaluation(reasoning?: string): FakeReply[] {
  return [
    {
      toolCall: {
        name: "critique",
        arguments: { subject: "remote work", analysis: "**Strengths**: focus time." },
      },
      ...(reasoning === undefined ? {} : { reasoning }),
    },
    {
      toolCall: {
        name: "debate",
        arguments: { topic: "remote work", perspectives: "**For**: output. **Against**: silos." },
      },
    },
    {
      toolCall: {
        name: "reflect",
        arguments: { topic: "remote work", reflection: "The evidence is mixed." },
      },
    },
    { text: "Remote work helps focused tasks and hurts onboarding." },
  ];
}

const message = "Please evaluate the claim that remote work improves productivity";

function historyText(value: unknown): string {
  if (value instanceof Uint8Array) return Buffer.from(value).toString("utf8");
  if (typeof value === "string") return value;
  if (Array.isArray(value)) return value.map(historyText).join("\n");
  if (value !== null && typeof value === "object") {
    return Object.values(value).map(historyText).join("\n");
  }
  return "";
}

interface ChatCase {
  provider: "groq" | "deepseek" | "cerebras";
  model: string;
  providerOptions: Record<string, unknown>;
  /** What the provider options put on the wire, in the first request's body. */
  wire: Record<string, unknown>;
}

const chatCases: ChatCase[] = [
  {
    provider: "groq",
    model: "qwen-qwq-32b",
    providerOptions: { reasoningFormat: "parsed", parallelToolCalls: false },
    wire: { reasoning_format: "parsed", parallel_tool_calls: false },
  },
  {
    provider: "deepseek",
    model: "deepseek-chat",
    providerOptions: { thinking: { type: "disabled" } },
    wire: { thinking: { type: "disabled" } },
  },
  {
    provider: "cerebras",
    model: "llama-3.3-70b",
    providerOptions: { reasoningEffort: "low" },
    wire: { reasoning_effort: "low" },
  },
];

/** The evaluation turn every provider case plays: critique → debate → reflect, then the answer. */
function assertEvaluationTurn(result: TurnResult): void {
  assert.equal(result.error, undefined);
  assert.equal(result.text, "Remote work helps focused tasks and hurts onboarding.");
  assert.deepEqual(
    result.toolCalls.map((call) => call.toolName),
    ["critique", "debate", "reflect"],
  );
  assert.ok(result.state.cumulativeTokenUsage.totalTokens > 0);
}

/** Four model calls, each of the first three offered exactly the sequence's next tool. */
function assertOneToolPerCall(offered: string[][]): void {
  assert.equal(offered.length, 4);
  assert.deepEqual(offered.slice(0, 3), [["critique"], ["debate"], ["reflect"]]);
}

describe("AgentDock's providers, each against a local server speaking its protocol", () => {
  let env: TestEnv;
  let gemini: FakeGeminiServer;
  let anthropic: FakeAnthropicServer;
  let openai: FakeResponsesServer;
  const chat = new Map<ChatCompletionsFlavor, FakeOpenAIServer>();

  before(async () => {
    gemini = await startFakeGeminiServer();
    anthropic = await startFakeAnthropicServer();
    openai = await startFakeResponsesServer();
    for (const flavor of ["groq", "deepseek", "cerebras"] as const) {
      chat.set(flavor, await startFakeOpenAIServer([], { flavor }));
    }
    const url = (flavor: ChatCompletionsFlavor): string => `${chat.get(flavor)?.url ?? ""}/v1`;
    const providerConfig: ProviderConfig = {
      scripted: {},
      gemini: { apiKey, baseURL: `${gemini.url}/v1beta` },
      anthropic: { apiKey, baseURL: `${anthropic.url}/v1` },
      openai: { apiKey, baseURL: `${openai.url}/v1` },
      groq: { apiKey, baseURL: url("groq") },
      deepseek: { apiKey, baseURL: url("deepseek") },
      cerebras: { apiKey, baseURL: url("cerebras") },
    };
    env = await createTestEnv();
    await env.startWorker({ providerConfig });
  });
  after(async () => {
    await env.close();
    await gemini.close();
    await anthropic.close();
    await openai.close();
    for (const server of chat.values()) await server.close();
  });

  it("gemini: streams critique → debate → reflect with safety and thinking settings on every call", async () => {
    gemini.enqueue(...evaluation("Weighing the claim before the critique."));
    const safetySettings = [
      { category: "HARM_CATEGORY_HATE_SPEECH", threshold: "BLOCK_MEDIUM_AND_ABOVE" },
    ];
    const sessionId = uniqueId("gemini");
    const template = {
      ...reasoner,
      llm: {
        provider: "gemini" as const,
        model: "gemini-2.5-flash",
        providerOptions: {
          useSearchGrounding: true,
          safetySettings,
          thinkingConfig: { thinkingBudget: 512, includeThoughts: true },
        },
      },
    };
    const result = await env.sessions.sendWithStart({ template, sessionId }, message, "m1");

    assert.equal(result.error, undefined);
    assert.equal(result.text, "Remote work helps focused tasks and hurts onboarding.");
    assert.deepEqual(
      result.toolCalls.map((call) => [call.toolName, call.status]),
      [
        ["critique", "ok"],
        ["debate", "ok"],
        ["reflect", "ok"],
      ],
    );
    assert.equal(result.state.activeStep, "DefaultMode");
    assert.ok(result.state.cumulativeTokenUsage.totalTokens > 0);

    const requests = gemini.requests;
    assert.equal(requests.length, 4);
    assert.deepEqual(requests.slice(0, 3).map(offeredFunctions), [
      ["critique"],
      ["debate"],
      ["reflect"],
    ]);
    for (const request of requests) {
      assert.equal(request.path, "/v1beta/models/gemini-2.5-flash:streamGenerateContent?alt=sse");
      assert.equal(request.headers["x-goog-api-key"], apiKey);
      assert.deepEqual(request.body.safetySettings, safetySettings);
      assert.deepEqual(request.body.generationConfig?.thinkingConfig, {
        thinkingBudget: 512,
        includeThoughts: true,
      });
      // Every call offers tools, so none is grounded: Gemini 2 cannot mix search and functions.
      assert.ok(!(request.body.tools ?? []).some((tool) => "googleSearch" in tool));
    }
    // The second call answers the first call's function call with its result.
    const answer = requests[1]?.body.contents.flatMap((content) => content.parts);
    assert.ok(answer?.some((part) => "functionResponse" in part));

    const history = historyText(await fetchHistory(env.client, workflowIdFor(sessionId)));
    assert.match(history, /gemini:gemini-2\.5-flash#\{/);
    assert.match(history, /Weighing the claim before the critique\./);
    assert.doesNotMatch(history, new RegExp(apiKey));
    const attempts = await activityAttempts(env.client, workflowIdFor(sessionId));
    assert.equal(attempts.filter((a) => a.type === "invokeModelStreaming").length, 4);
  });

  it("anthropic: streams critique → debate → reflect with extended thinking on every call", async () => {
    anthropic.enqueue(...evaluation("Weighing the claim with extended thinking."));
    const sessionId = uniqueId("anthropic");
    const template = {
      ...reasoner,
      llm: {
        provider: "anthropic" as const,
        model: "claude-3-7-sonnet-20250219",
        maxTokens: 4096,
        providerOptions: { thinking: { type: "enabled", budgetTokens: 1024 } },
      },
    };
    const result = await env.sessions.sendWithStart({ template, sessionId }, message, "m1");

    assertEvaluationTurn(result);
    const requests = anthropic.requests;
    assertOneToolPerCall(requests.map(offeredAnthropicTools));
    for (const request of requests) {
      assert.equal(request.path, "/v1/messages");
      assert.equal(request.headers["x-api-key"], apiKey);
      assert.equal(request.body.stream, true);
      assert.deepEqual(request.body.thinking, { type: "enabled", budget_tokens: 1024 });
    }
    const history = historyText(await fetchHistory(env.client, workflowIdFor(sessionId)));
    assert.match(history, /Weighing the claim with extended thinking\./);
    assert.doesNotMatch(history, new RegExp(apiKey));
  });

  it("openai: streams critique → debate → reflect over the Responses API with a reasoning effort", async () => {
    openai.enqueue(...evaluation());
    const sessionId = uniqueId("openai");
    const template = {
      ...reasoner,
      llm: {
        provider: "openai" as const,
        model: "o4-mini",
        providerOptions: { reasoningEffort: "low" },
      },
    };
    const result = await env.sessions.sendWithStart({ template, sessionId }, message, "m1");

    assertEvaluationTurn(result);
    const requests = openai.requests;
    assertOneToolPerCall(requests.map(offeredResponsesTools));
    for (const request of requests) {
      assert.equal(request.path, "/v1/responses");
      assert.equal(request.headers.authorization, `Bearer ${apiKey}`);
      assert.equal(request.body.stream, true);
      assert.equal((request.body.reasoning as { effort?: string }).effort, "low");
    }
  });

  for (const row of chatCases) {
    it(`${row.provider}: streams critique → debate → reflect with its provider options on the wire`, async () => {
      const server = chat.get(row.provider);
      assert.ok(server !== undefined);
      server.enqueue(...evaluation(`Thinking it over on ${row.provider}.`));
      const sessionId = uniqueId(row.provider);
      const template = {
        ...reasoner,
        llm: { provider: row.provider, model: row.model, providerOptions: row.providerOptions },
      };
      const result = await env.sessions.sendWithStart({ template, sessionId }, message, "m1");

      assert.equal(result.error, undefined);
      assert.equal(result.text, "Remote work helps focused tasks and hurts onboarding.");
      assert.deepEqual(
        result.toolCalls.map((call) => call.toolName),
        ["critique", "debate", "reflect"],
      );
      assert.ok(
        result.state.cumulativeTokenUsage.totalTokens > 0,
        "usage arrives in the flavor's place",
      );
      const requests = server.requests;
      assert.equal(requests.length, 4);
      assert.deepEqual(requests.slice(0, 3).map(offeredTools), [
        ["critique"],
        ["debate"],
        ["reflect"],
      ]);
      for (const request of requests) {
        assert.equal(request.path, "/v1/chat/completions");
        assert.equal(request.headers.authorization, `Bearer ${apiKey}`);
        assert.equal(request.body.model, row.model);
        assert.equal(request.body.stream, true);
        for (const [field, value] of Object.entries(row.wire)) {
          assert.deepEqual(request.body[field], value, `${field} in the request body`);
        }
      }
      const history = historyText(await fetchHistory(env.client, workflowIdFor(sessionId)));
      assert.match(history, new RegExp(`Thinking it over on ${row.provider}\\.`));
      assert.doesNotMatch(history, new RegExp(apiKey));
    });
  }

  it("groq with extractReasoning: <think> text becomes reasoning, not part of the answer", async () => {
    const server = chat.get("groq");
    assert.ok(server !== undefined);
    server.enqueue({
      text: "<think>The user only greets me.</think>Hello! What shall we reason about?",
    });
    const sessionId = uniqueId("groq-think");
    const template = {
      ...reasoner,
      llm: {
        provider: "groq" as const,
        model: "deepseek-r1-distill-llama-70b",
        providerOptions: { extractReasoning: true },
      },
    };
    const result = await env.sessions.sendWithStart({ template, sessionId }, "Hello there", "m1");

    assert.equal(result.error, undefined);
    assert.equal(result.text, "Hello! What shall we reason about?");
    const history = historyText(await fetchHistory(env.client, workflowIdFor(sessionId)));
    assert.match(history, /The user only greets me\./);
  });
});
