// Types only: workflow code imports this file with `import type`.
import type { PureToolRun } from "../src/session/pure-tool-run.ts";
import type { BuiltinToolOutput } from "../src/tools/index.ts";
import type { AvailabilityFor, ToolAvailabilityInput } from "./tool-availability.ts";

export interface RunToolInput {
  /** Tool name as the model called it. */
  tool: string;
  /** The model's raw arguments; validated by the activity. */
  input: unknown;
  /** The session's model, used by tools that call a model themselves (`summarize`). */
  modelId: string;
  sessionId: string;
  toolCallId: string;
}

/** A pure tool's call, run as a local activity: it needs neither the model nor the session. */
export type PureToolInput = Pick<RunToolInput, "tool" | "input" | "toolCallId">;

/**
 * A tool's result, derived from the built-in modules' `execute` (`ThinkResult`, `SearchResult`,
 * …). Plain JSON: survives the payload converter unchanged.
 */
export type ToolOutput = BuiltinToolOutput;

// A property, not a method: the worker calls activities detached from the object.
export interface ToolActivities {
  runTool: (args: RunToolInput) => Promise<ToolOutput>;
  /** Local activity: a pure tool's call, answered with the call it answers (see PURE_TOOL_ACTIVITY). */
  runPureTool: (args: PureToolInput) => Promise<PureToolRun>;
  /** Local activity at each turn's start: which of the agent's tools this worker cannot run. */
  checkToolAvailability: <I extends ToolAvailabilityInput>(args: I) => Promise<AvailabilityFor<I>>;
}

/** The `ApplicationFailure.type` values `runTool` throws (defined with the tools). */
export type { ToolFailureType } from "../src/tools/index.ts";
