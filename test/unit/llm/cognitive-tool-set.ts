import { tool, type Tool } from "ai";
import {
  brainstormTool,
  compareTool,
  critiqueTool,
  debateTool,
  reflectTool,
  runCognitiveTool,
  thinkTool,
  type CognitiveToolName,
} from "../../../src/tools/index.ts";

/** The six shipped cognitive tools as AI SDK tools, running the real implementations. */
export const cognitiveToolOrder: readonly CognitiveToolName[] = [
  "think",
  "reflect",
  "critique",
  "debate",
  "brainstorm",
  "compare",
];

const definitions = {
  think: thinkTool,
  reflect: reflectTool,
  critique: critiqueTool,
  debate: debateTool,
  brainstorm: brainstormTool,
  compare: compareTool,
} as const;

export type CognitiveToolSet = Record<CognitiveToolName, Tool>;

/** `override` replaces a tool's execute, e.g. to make it fail or refuse. */
export function cognitiveToolSet(
  override: Partial<Record<CognitiveToolName, (input: unknown) => unknown>> = {},
): CognitiveToolSet {
  const entries = cognitiveToolOrder.map((name) => {
    const definition = definitions[name];
    const execute = override[name] ?? ((input: unknown) => runCognitiveTool(name, input));
    return [
      name,
      tool({
        description: definition.description,
        inputSchema: definition.inputSchema,
        execute: (input: unknown) => Promise.resolve(execute(input)),
      }),
    ] as const;
  });
  return Object.fromEntries(entries) as CognitiveToolSet;
}
