import { brainstormTool, runBrainstorm } from "./brainstorm.ts";
import type { BrainstormResult } from "./brainstorm.ts";
import { compareTool, runCompare } from "./compare.ts";
import type { CompareResult } from "./compare.ts";
import { critiqueTool, runCritique } from "./critique.ts";
import type { CritiqueResult } from "./critique.ts";
import { debateTool, runDebate } from "./debate.ts";
import type { DebateResult } from "./debate.ts";
import { parseToolInput } from "./parse-tool-input.ts";
import { reflectTool, runReflect } from "./reflect.ts";
import type { ReflectResult } from "./reflect.ts";
import { runThink, thinkTool } from "./think.ts";
import type { ThinkResult } from "./think.ts";

export const cognitiveToolNames = [
  "think",
  "reflect",
  "critique",
  "debate",
  "brainstorm",
  "compare",
] as const;

export type CognitiveToolName = (typeof cognitiveToolNames)[number];

export type CognitiveToolResult =
  ThinkResult | ReflectResult | CritiqueResult | DebateResult | BrainstormResult | CompareResult;

export function isCognitiveToolName(name: string): name is CognitiveToolName {
  return (cognitiveToolNames as readonly string[]).includes(name);
}

/**
 * Validates raw tool-call arguments and runs the named cognitive tool.
 *
 * @throws {ToolInputError} when the arguments do not match the tool's schema.
 */
export function runCognitiveTool(name: CognitiveToolName, input: unknown): CognitiveToolResult {
  switch (name) {
    case "think":
      return runThink(parseToolInput(thinkTool, input));
    case "reflect":
      return runReflect(parseToolInput(reflectTool, input));
    case "critique":
      return runCritique(parseToolInput(critiqueTool, input));
    case "debate":
      return runDebate(parseToolInput(debateTool, input));
    case "brainstorm":
      return runBrainstorm(parseToolInput(brainstormTool, input));
    case "compare":
      return runCompare(parseToolInput(compareTool, input));
    default: {
      const unreachable: never = name;
      throw new Error(`Unknown cognitive tool: ${String(unreachable)}`);
    }
  }
}
