import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { ApplicationFailure } from "@temporalio/common";
import { createToolActivities } from "../../../activities/index.ts";
import type { PureToolInput } from "../../../activities/index.ts";

const { runPureTool, runTool } = createToolActivities({
  summarizeModel: (modelId) => {
    throw new Error(`no model expected, asked for ${modelId}`);
  },
});

function call(tool: string, input: unknown): PureToolInput {
  return { tool, input, toolCallId: "call-7" };
}

describe("runPureTool: a pure tool as a local activity", () => {
  it("answers with the call it answers and the same output runTool gives", async () => {
    const input = { subject: "the plan", analysis: "Strengths: clear." };
    const run = await runPureTool(call("critique", input));
    assert.equal(run.tool, "critique");
    assert.equal(run.toolCallId, "call-7");
    assert.deepEqual(
      run.output,
      await runTool({ ...call("critique", input), modelId: "m", sessionId: "s" }),
    );
  });

  it("fails invalid input as runTool does (non-retryable ToolInputError) and names the call in the details", async () => {
    await assert.rejects(
      runPureTool(call("critique", { subject: "x", analysis: "y", score: 3 })),
      (error: unknown) => {
        assert.ok(error instanceof ApplicationFailure);
        assert.equal(error.type, "ToolInputError");
        assert.equal(error.nonRetryable, true);
        assert.match(error.message, /score/);
        assert.deepEqual(
          (error.details?.[0] as { tool: string; toolCallId: string }).toolCallId,
          "call-7",
        );
        assert.equal((error.details?.[0] as { tool: string }).tool, "critique");
        return true;
      },
    );
  });

  it("refuses a tool that is not pure, naming runTool, without retries", async () => {
    await assert.rejects(runPureTool(call("search", { query: "x" })), (error: unknown) => {
      assert.ok(error instanceof ApplicationFailure);
      assert.equal(error.type, "UnknownTool");
      assert.equal(error.nonRetryable, true);
      assert.match(error.message, /"search" is not a pure tool: run it with runTool/);
      assert.deepEqual(error.details, [{ tool: "search", toolCallId: "call-7" }]);
      return true;
    });
  });
});
