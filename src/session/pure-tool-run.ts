import { z } from "zod";
import { sharedAcrossSessions } from "../orchestration/shared-across-sessions.ts";

/**
 * The activity that runs a pure tool (the cognitive tools: they only reshape the model's own
 * text) as a local activity. Temporal records a local activity as one marker event that holds
 * its result or failure but not its input, so what the marker must tell a reader of history
 * (the console's timeline, the decisions a fork recomputes) travels in that result or failure.
 */
export const PURE_TOOL_ACTIVITY = "runPureTool";

/** Which call a pure tool's result or failure belongs to. */
export const pureToolCallSchema = sharedAcrossSessions(
  "src/session/pure-tool-run:pureToolCallSchema",
  () =>
    z.object({
      tool: z.string().min(1),
      toolCallId: z.string().min(1),
    }),
);

export type PureToolCall = z.infer<typeof pureToolCallSchema>;

/** A pure tool's result as its marker records it: the call it answers, then the tool's output. */
export const pureToolRunSchema = sharedAcrossSessions(
  "src/session/pure-tool-run:pureToolRunSchema",
  () => pureToolCallSchema.extend({ output: z.unknown() }),
);

export type PureToolRun = z.infer<typeof pureToolRunSchema>;
