import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { readUIMessageStream, type UIMessage, type UIMessageChunk } from "ai";
import type { LiveItem } from "../../../src/client/index.ts";
import type { SessionView, TurnResult } from "../../../src/session/index.ts";
import { TurnChunker } from "../../../src/client/ui-chunks.ts";

const state: SessionView = {
  sessionId: "s1",
  agentId: "general",
  status: "idle",
  activeStep: "Main",
  sequenceIndex: 0,
  sequenceLength: 0,
  allowedTools: [],
  recentlyUsedTools: [],
  toolCount: 1,
  turn: 1,
  cumulativeTokenUsage: { inputTokens: 10, outputTokens: 5, totalTokens: 15 },
  pendingMessages: 0,
  run: 1,
  summarizedTurns: 0,
};
const result: TurnResult = { messageId: "m1", turn: 1, text: "Done.", toolCalls: [], state };

/** The UI message a useChat client builds from these chunks (the AI SDK's own reader). */
async function uiMessage(chunks: UIMessageChunk[]): Promise<UIMessage> {
  let last: UIMessage | undefined;
  const stream = ReadableStream.from(chunks);
  for await (const message of readUIMessageStream<UIMessage>({ stream, terminateOnError: true })) {
    last = message;
  }
  assert.ok(last !== undefined);
  return last;
}

function chunksOf(items: LiveItem[], turn: TurnResult = result): UIMessageChunk[] {
  const chunker = new TurnChunker();
  return [
    ...chunker.start("s1:m1"),
    ...items.flatMap((item) => chunker.fromLive(item)),
    ...chunker.finish(turn),
  ];
}

const step = (n: number): LiveItem => ({
  type: "session",
  event: { type: "model_step", step: n, activeStep: "Main", offeredTools: ["think"] },
});

describe("TurnChunker", () => {
  it("builds steps, a tool call with its output, and the streamed text", async () => {
    const message = await uiMessage(
      chunksOf([
        step(1),
        { type: "tool_call", step: 1, toolCallId: "c1", toolName: "think", input: { topic: "x" } },
        { type: "session", event: { type: "tool_started", toolCallId: "c1", toolName: "think" } },
        {
          type: "session",
          event: { type: "tool_output", toolCallId: "c1", toolName: "think", output: "ok" },
        },
        step(2),
        { type: "text_delta", step: 2, delta: "Do" },
        { type: "text_delta", step: 2, delta: "ne." },
      ]),
    );
    assert.deepEqual(
      message.parts.map((part) => part.type),
      ["step-start", "tool-think", "step-start", "text"],
    );
    const tool = message.parts[1] as { state: string; input: unknown; output: unknown };
    assert.deepEqual(
      [tool.state, tool.input, tool.output],
      ["output-available", { topic: "x" }, "ok"],
    );
    const text = message.parts[3] as { text: string; state: string };
    assert.deepEqual([text.text, text.state], ["Done.", "done"]);
    assert.deepEqual(message.metadata, {
      sessionId: "s1",
      turn: 1,
      activeStep: "Main",
      totalTokens: 15,
    });
  });

  it("drops what a retried model call had streamed (reset-step)", async () => {
    const message = await uiMessage(
      chunksOf([
        step(1),
        { type: "text_delta", step: 1, delta: "Half an ans" },
        { type: "model_retry", step: 1 },
        { type: "text_delta", step: 1, delta: "Done." },
      ]),
    );
    const texts = message.parts.flatMap((part) => (part.type === "text" ? [part.text] : []));
    assert.deepEqual(texts, ["Done."]);
  });

  it("shows refusals and tool errors as tool errors, and a failed turn as an error", async () => {
    const chunks = chunksOf(
      [
        step(1),
        { type: "tool_call", step: 1, toolCallId: "c1", toolName: "search", input: {} },
        {
          type: "session",
          event: {
            type: "tool_finished",
            toolCallId: "c1",
            toolName: "search",
            status: "refused",
            detail: "refused: not allowed",
          },
        },
      ],
      { ...result, text: "", error: "the provider failed" },
    );
    assert.ok(
      chunks.some((chunk) => chunk.type === "error" && chunk.errorText === "the provider failed"),
    );
    const message = await uiMessage(chunks.filter((chunk) => chunk.type !== "error"));
    const tool = message.parts.find((part) => part.type === "tool-search") as
      { state: string; errorText: string } | undefined;
    assert.deepEqual([tool?.state, tool?.errorText], ["output-error", "refused: not allowed"]);
  });

  it("answers from the result alone when the turn's live events are gone", async () => {
    const chunker = new TurnChunker();
    const message = await uiMessage([
      ...chunker.start("s1:m1"),
      ...chunker.fromResult(result),
      ...chunker.finish(result),
    ]);
    assert.deepEqual(
      message.parts.flatMap((part) => (part.type === "text" ? [part.text] : [])),
      ["Done."],
    );
  });
});
