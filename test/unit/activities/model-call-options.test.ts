import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { ApplicationFailure } from "@temporalio/common";
import { modelCallOptions } from "../../../activities/model-call-options.ts";

describe("the model activity's call options", () => {
  it("takes the options from the input, as sessions recorded before the query send them", async () => {
    const options = { prompt: [{ role: "user", content: [{ type: "text", text: "hi" }] }] };
    const resolved = await modelCallOptions({
      modelId: "scripted:auto",
      options,
      streamingTopic: "model/1",
    });
    // Such sessions publish every call's live parts from the activity, as they always did.
    assert.deepEqual(resolved, {
      modelId: "scripted:auto",
      streamingTopic: "model/1",
      options,
      deferLiveParts: false,
    });
  });

  for (const [name, input, detail] of [
    ["no model id", { streamingTopic: "model/1", offeredTools: [] }, /modelId/],
    ["no offered tools", { modelId: "m", streamingTopic: "model/1" }, /offeredTools/],
    ["options beside a bad model id", { modelId: 3, options: {}, streamingTopic: "t" }, /modelId/],
    ["nothing at all", null, /model activity input/],
  ] as const) {
    it(`fails for good on an input with ${name}, naming the field`, async () => {
      await assert.rejects(modelCallOptions(input), (error: unknown) => {
        assert.ok(error instanceof ApplicationFailure);
        assert.equal(error.type, "ModelCallInputError");
        assert.equal(error.nonRetryable, true);
        assert.match(error.message, detail);
        return true;
      });
    });
  }
});
