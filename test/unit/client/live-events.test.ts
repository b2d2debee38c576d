import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { LiveTranslator } from "../../../src/client/index.ts";

describe("LiveTranslator", () => {
  it("reduces model parts to text, reasoning and tool calls of the current model step", () => {
    const translator = new LiveTranslator();
    translator.fromEvent({ type: "model_step", step: 2, activeStep: "A", offeredTools: [] });
    assert.deepEqual(translator.fromModelPart({ type: "stream-start" }), []);
    assert.deepEqual(translator.fromModelPart({ type: "response-metadata" }), []);
    assert.deepEqual(translator.fromModelPart({ type: "text-delta", delta: "Hi" }), [
      { type: "text_delta", step: 2, delta: "Hi" },
    ]);
    assert.deepEqual(translator.fromModelPart({ type: "text-delta", delta: "" }), []);
    assert.deepEqual(translator.fromModelPart({ type: "reasoning-delta", delta: "hm" }), [
      { type: "reasoning_delta", step: 2, delta: "hm" },
    ]);
    assert.deepEqual(
      translator.fromModelPart({
        type: "tool-call",
        toolCallId: "c1",
        toolName: "think",
        input: '{"topic":"x"}',
      }),
      [{ type: "tool_call", step: 2, toolCallId: "c1", toolName: "think", input: { topic: "x" } }],
    );
  });

  it("marks a second stream start within one model step as a retry, and a new step as none", () => {
    const translator = new LiveTranslator();
    translator.fromEvent({ type: "model_step", step: 1, activeStep: null, offeredTools: [] });
    assert.deepEqual(translator.fromModelPart({ type: "stream-start" }), []);
    assert.deepEqual(translator.fromModelPart({ type: "stream-start" }), [
      { type: "model_retry", step: 1 },
    ]);
    translator.fromEvent({ type: "model_step", step: 2, activeStep: null, offeredTools: [] });
    assert.deepEqual(translator.fromModelPart({ type: "stream-start" }), []);
  });

  it("keeps a tool input that is not JSON as the text the model sent", () => {
    const translator = new LiveTranslator();
    const [item] = translator.fromModelPart({
      type: "tool-call",
      toolCallId: "c",
      toolName: "t",
      input: "{oops",
    });
    assert.deepEqual(item, {
      type: "tool_call",
      step: 0,
      toolCallId: "c",
      toolName: "t",
      input: "{oops",
    });
  });
});
