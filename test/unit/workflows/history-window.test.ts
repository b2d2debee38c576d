import assert from "node:assert/strict";
import { describe, it } from "node:test";
import type {
  LanguageModelV4CallOptions,
  LanguageModelV4Content,
  LanguageModelV4GenerateResult,
} from "@ai-sdk/provider";
import { generateText, isStepCount } from "ai";
import { MockLanguageModelV4 } from "ai/test";
import type { SessionMessage } from "../../../src/session/index.ts";
import {
  answerText,
  boundedSummary,
  compactionCut,
  MAX_SUMMARY_CHARS,
  SUMMARY_INSTRUCTIONS,
  summaryCallOptions,
  summaryPrompt,
  transcriptOf,
} from "../../../workflows/history-window.ts";

function turn(n: number, withTool = false): SessionMessage[] {
  const messages: SessionMessage[] = [{ role: "user", content: `question ${n}` }];
  if (withTool) {
    messages.push(
      {
        role: "assistant",
        content: [
          { type: "tool-call", toolCallId: `c${n}`, toolName: "think", input: { topic: n } },
        ],
      },
      {
        role: "tool",
        content: [
          {
            type: "tool-result",
            toolCallId: `c${n}`,
            toolName: "think",
            output: { type: "text", value: "x".repeat(1000) },
          },
        ],
      },
    );
  }
  messages.push({ role: "assistant", content: [{ type: "text", text: `answer ${n}` }] });
  return messages;
}

describe("compactionCut", () => {
  it("waits for half a window of extra turns, then keeps exactly the window", () => {
    const four = [1, 2, 3, 4].flatMap((n) => turn(n));
    assert.equal(compactionCut(four, 4), undefined);
    const six = [1, 2, 3, 4, 5, 6].flatMap((n) => turn(n));
    assert.equal(compactionCut(six, 4), undefined);
    const seven = [1, 2, 3, 4, 5, 6, 7].flatMap((n) => turn(n));
    const cut = compactionCut(seven, 4);
    assert.equal(cut, 6);
    assert.deepEqual(seven[cut], { role: "user", content: "question 4" });
  });

  it("cuts only at a user message, never between a tool call and its result", () => {
    const messages = [1, 2, 3].flatMap((n) => turn(n, true));
    const cut = compactionCut(messages, 1);
    assert.equal(messages[cut ?? 0]?.role, "user");
    assert.equal(messages.slice(cut).filter((message) => message.role === "tool").length, 1);
  });
});

describe("the summarizer's view", () => {
  it("renders text, tool calls and truncated tool results", () => {
    const text = transcriptOf(turn(1, true));
    assert.match(text, /^user: question 1/);
    assert.match(text, /\[called think with \{"topic":1\}\]/);
    assert.match(text, /\[think returned .{400}…\]/);
    assert.match(text, /assistant: answer 1$/);
  });

  it("bounds the summary", () => {
    assert.equal(
      boundedSummary(`  ${"y".repeat(MAX_SUMMARY_CHARS + 10)}  `).length,
      MAX_SUMMARY_CHARS + 1,
    );
    assert.equal(boundedSummary(" short "), "short");
  });
});

/** What the summarizer's call looked like through `generateText`, as the model activity got it. */
async function throughGenerateText(
  previous: string | undefined,
  leaving: readonly SessionMessage[],
  content: LanguageModelV4Content[],
): Promise<{ options: unknown; text: string }> {
  let options: LanguageModelV4CallOptions | undefined;
  const model = new MockLanguageModelV4({
    doGenerate: (call): Promise<LanguageModelV4GenerateResult> => {
      options = call;
      return Promise.resolve({
        content,
        finishReason: { unified: "stop", raw: "stop" },
        usage: {
          inputTokens: { total: 1, noCache: 1, cacheRead: 0, cacheWrite: 0 },
          outputTokens: { total: 1, text: 1, reasoning: 0 },
        },
        warnings: [],
      });
    },
  });
  const result = await generateText({
    model,
    instructions: SUMMARY_INSTRUCTIONS,
    prompt: summaryPrompt(previous, leaving),
    stopWhen: isStepCount(1),
    maxRetries: 0,
  });
  // The activity input crosses the JSON payload converter: undefined fields are dropped.
  const { headers: _userAgent, ...sent } = JSON.parse(JSON.stringify(options)) as {
    headers?: unknown;
  };
  return { options: sent, text: result.text };
}

describe("the summarizer's model call without generateText", () => {
  const leaving = [...turn(1, true), ...turn(2)];

  it("sends the model the prompt and tool choice generateText would send", async () => {
    for (const previous of [undefined, "The user asked about tides."]) {
      const expected = await throughGenerateText(previous, leaving, []);
      assert.deepEqual(
        JSON.parse(JSON.stringify(summaryCallOptions(previous, leaving))),
        expected.options,
      );
    }
  });

  it("reads the answer's text as generateText does: text parts joined, reasoning left out", async () => {
    const content: LanguageModelV4Content[] = [
      { type: "reasoning", text: "thinking it over" },
      { type: "text", text: "The user wants " },
      { type: "text", text: "a summary." },
    ];
    const expected = await throughGenerateText(undefined, leaving, content);
    assert.equal(answerText(content), expected.text);
    assert.equal(answerText(content), "The user wants a summary.");
  });
});
