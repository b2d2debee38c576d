import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { generateText, isStepCount, streamText } from "ai";
import type { LanguageModelV4StreamPart } from "@ai-sdk/provider";
import { createScriptedModel } from "../../../src/llm/scripted/scripted-model.ts";
import { cognitiveToolOrder, cognitiveToolSet } from "./cognitive-tool-set.ts";
import type { CognitiveToolName } from "../../../src/tools/index.ts";

const narrowed: CognitiveToolName[][] = [["critique"], ["debate"], ["reflect"]];
const request = {
  instructions: "You are the Cognitive Reasoner.",
  prompt: "Please evaluate my plan to move billing onto a queue.",
  tools: cognitiveToolSet(),
  prepareStep: ({ stepNumber }: { stepNumber: number }) => ({
    activeTools: narrowed[stepNumber] ?? [...cognitiveToolOrder],
  }),
  stopWhen: isStepCount(10),
  maxRetries: 0,
};

async function collect(stream: ReadableStream<LanguageModelV4StreamPart>) {
  const parts: LanguageModelV4StreamPart[] = [];
  for await (const part of stream) parts.push(part);
  return parts;
}

describe("scripted model streaming", () => {
  it("streams the same steps and text as generateText, in several deltas", async () => {
    const generated = await generateText({ model: createScriptedModel("auto"), ...request });
    const streamed = streamText({ model: createScriptedModel("auto"), ...request });
    const deltas: string[] = [];
    for await (const delta of streamed.textStream) deltas.push(delta);

    assert.ok(deltas.length > 3);
    assert.equal(deltas.join(""), generated.text);
    assert.equal(await streamed.text, generated.text);
    const calls = (await streamed.steps).flatMap((step) => step.toolCalls.map((c) => c.toolName));
    assert.deepEqual(calls, ["critique", "debate", "reflect"]);
    assert.deepEqual(await streamed.usage, generated.usage);
  });

  it("emits stream-start first, a tool call with its input, and finish with usage last", async () => {
    const model = createScriptedModel("auto");
    const { stream } = await model.doStream({
      prompt: [{ role: "user", content: [{ type: "text", text: "Review it." }] }],
      tools: [
        {
          type: "function",
          name: "critique",
          inputSchema: {
            type: "object",
            properties: { subject: { type: "string" } },
            required: ["subject"],
          },
        },
      ],
    });
    const parts = await collect(stream);

    assert.deepEqual(
      parts.map((part) => part.type),
      [
        "stream-start",
        "response-metadata",
        "tool-input-start",
        "tool-input-delta",
        "tool-input-end",
        "tool-call",
        "finish",
      ],
    );
    assert.deepEqual(parts[5], {
      type: "tool-call",
      toolCallId: "call-1-1",
      toolName: "critique",
      input: '{"subject":"Review it."}',
    });
    const finish = parts.at(-1);
    assert.ok(finish?.type === "finish");
    assert.equal(finish.finishReason.unified, "tool-calls");
    assert.ok((finish.usage.inputTokens.total ?? 0) > 0);
  });
});
