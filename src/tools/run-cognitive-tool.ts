import { builtinTools } from "./builtin-tools.ts";
import type { BuiltinTool } from "./builtin-tools.ts";
import { executeTool } from "./execute-tool.ts";
import type { ToolContext } from "./tool-module.ts";

type CognitiveTool = Extract<BuiltinTool, { category: "cognitive" }>;

export type CognitiveToolName = CognitiveTool["name"];

export type CognitiveToolResult = ReturnType<CognitiveTool["execute"]>;

function isCognitiveTool(tool: BuiltinTool): tool is CognitiveTool {
  return tool.category === "cognitive";
}

const cognitiveTools: readonly CognitiveTool[] = builtinTools.filter(isCognitiveTool);

/** The built-in tools of the cognitive category, in catalogue order. */
export const cognitiveToolNames: readonly CognitiveToolName[] = cognitiveTools.map(
  (tool) => tool.name,
);

export function isCognitiveToolName(name: string): name is CognitiveToolName {
  return (cognitiveToolNames as readonly string[]).includes(name);
}

// Cognitive tools only reshape the model's own text: they use nothing from the context.
const noContext: ToolContext = {
  services: {},
  sessionModel: () => {
    throw new Error("a cognitive tool uses no model");
  },
  signal: undefined,
  sessionId: "",
  toolCallId: "",
};

/**
 * Validates raw tool-call arguments and runs the named cognitive tool, synchronously.
 *
 * @throws {ToolInputError} when the arguments do not match the tool's schema.
 */
export function runCognitiveTool(name: CognitiveToolName, input: unknown): CognitiveToolResult {
  const tool = cognitiveTools.find((candidate) => candidate.name === name);
  if (tool === undefined) {
    throw new Error(`Unknown cognitive tool: ${name}`);
  }
  return executeTool<CognitiveToolResult>(tool, input, noContext);
}
