import { ApplicationFailure } from "@temporalio/common";
import type { PureToolCall, PureToolRun } from "../src/session/pure-tool-run.ts";
import { isCognitiveToolName, runCognitiveTool, ToolInputError } from "../src/tools/index.ts";
import { toolInputFailure } from "./tool-failures.ts";
import type { PureToolInput } from "./tool-types.ts";

/**
 * Runs a pure tool for the workflow's local activity. Its result and every failure name the call
 * (tool and call id): a local activity's marker keeps no input, and the console's timeline and a
 * fork's recomputed decisions read the call from the marker. Failures keep the type, message and
 * retryability `runTool` gives them, so the workflow treats a failed call the same either way.
 */
export function runPureTool(args: PureToolInput): Promise<PureToolRun> {
  const call: PureToolCall = { tool: args.tool, toolCallId: args.toolCallId };
  if (!isCognitiveToolName(args.tool)) {
    // Only the workflow schedules this activity, and only for cognitive tools.
    return Promise.reject(
      ApplicationFailure.create({
        type: "UnknownTool",
        message: `${JSON.stringify(args.tool)} is not a pure tool: run it with runTool`,
        nonRetryable: true,
        details: [call],
      }),
    );
  }
  try {
    return Promise.resolve({ ...call, output: runCognitiveTool(args.tool, args.input) });
  } catch (error) {
    if (error instanceof ToolInputError)
      return Promise.reject(toolInputFailure(error, call.toolCallId));
    const cause = error instanceof Error ? error : new Error(String(error));
    // What the SDK would make of the error, plus the call it belongs to.
    return Promise.reject(
      ApplicationFailure.create({
        type: cause.name,
        message: cause.message,
        details: [call],
        cause,
      }),
    );
  }
}
