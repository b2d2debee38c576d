import type { ApplicationFailure } from "@temporalio/common";
import { toolFailure } from "../src/tools/index.ts";
import type { ToolInputError } from "../src/tools/index.ts";

export function unknownToolFailure(name: string, known: readonly string[]): ApplicationFailure {
  return toolFailure(
    "UnknownTool",
    `Unknown tool ${JSON.stringify(name)}; the available tools are ${known.join(", ")}`,
    { nonRetryable: true },
  );
}

/**
 * Carries the validation message verbatim so the model can correct its call. The call's id rides
 * in the details when the failure is all history keeps of the call (a local activity's marker).
 */
export function toolInputFailure(error: ToolInputError, toolCallId?: string): ApplicationFailure {
  return toolFailure("ToolInputError", error.message, {
    nonRetryable: true,
    details: [
      {
        tool: error.toolName,
        ...(toolCallId === undefined ? {} : { toolCallId }),
        issues: error.issues.map((issue) => ({ ...issue })),
      },
    ],
  });
}
