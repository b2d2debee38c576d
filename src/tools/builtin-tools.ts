import { brainstormTool } from "./brainstorm.ts";
import { compareTool } from "./compare.ts";
import { critiqueTool } from "./critique.ts";
import { debateTool } from "./debate.ts";
import { deepResearchTool } from "./deep-research.ts";
import { reflectTool } from "./reflect.ts";
import { searchTool } from "./search.ts";
import { summarizeTool } from "./summarize.ts";
import { thinkTool } from "./think.ts";
import { ToolRegistry } from "./tool-registry.ts";

/**
 * Every shipped tool module, in the order they are offered to the model. A new built-in tool is
 * its module file plus its place in this list; nothing else names it.
 */
export const builtinTools = [
  thinkTool,
  reflectTool,
  critiqueTool,
  debateTool,
  brainstormTool,
  compareTool,
  summarizeTool,
  searchTool,
  deepResearchTool,
] as const;

export type BuiltinTool = (typeof builtinTools)[number];

/** What the built-in tools return (each module's `execute` result, awaited). */
export type BuiltinToolOutput = Awaited<ReturnType<BuiltinTool["execute"]>>;

/** A fresh registry holding the built-in tools, for a worker to add its plug-ins to. */
export function createToolRegistry(): ToolRegistry {
  return new ToolRegistry(builtinTools);
}
