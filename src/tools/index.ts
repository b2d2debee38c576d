export { brainstormInputSchema, brainstormTool, runBrainstorm } from "./brainstorm.ts";
export type { BrainstormInput, BrainstormResult } from "./brainstorm.ts";
export { findTool, toolCatalogue, toolCatalogueEntries } from "./catalogue.ts";
export { formatCognitiveContent, normaliseWhitespace } from "./cognitive-result.ts";
export type { CognitiveResult } from "./cognitive-result.ts";
export { compareInputSchema, compareTool, runCompare } from "./compare.ts";
export type { CompareInput, CompareResult } from "./compare.ts";
export { critiqueInputSchema, critiqueTool, runCritique } from "./critique.ts";
export type { CritiqueInput, CritiqueResult } from "./critique.ts";
export { debateInputSchema, debateTool, runDebate } from "./debate.ts";
export type { DebateInput, DebateResult } from "./debate.ts";
export {
  deepResearchInputSchema,
  deepResearchTool,
  researchCharsPerSource,
  researchCharsTotal,
  researchDepthDefault,
  researchMaxSourcesDefault,
  researchMaxSourcesMax,
  runDeepResearch,
} from "./deep-research.ts";
export type { DeepResearchInput, DeepResearchResult } from "./deep-research.ts";
export {
  formatResearchPrompt,
  parseResearchPrompt,
  researchInstructions,
} from "./research-prompt.ts";
export type { ResearchSourceText } from "./research-prompt.ts";
export type { ResearchSource } from "./research-report.ts";
export { parseToolInput } from "./parse-tool-input.ts";
export { reflectInputSchema, reflectTool, runReflect } from "./reflect.ts";
export type { ReflectInput, ReflectResult } from "./reflect.ts";
export { cognitiveToolNames, isCognitiveToolName, runCognitiveTool } from "./run-cognitive-tool.ts";
export type { CognitiveToolName, CognitiveToolResult } from "./run-cognitive-tool.ts";
export {
  runSearchTool,
  searchInputSchema,
  searchLimitDefault,
  searchLimitMax,
  searchLimitMin,
  searchNotConfiguredReason,
  searchTool,
} from "./search.ts";
export type { SearchInput, SearchResult, SearchResultItem } from "./search.ts";
export {
  runSummarizeTool,
  summarizeInputSchema,
  summarizeInstructions,
  summarizeTool,
} from "./summarize.ts";
export type { SummarizeInput, SummarizeResult } from "./summarize.ts";
export { runThink, thinkInputSchema, thinkTool } from "./think.ts";
export type { ThinkInput, ThinkResult } from "./think.ts";
export type { ToolCatalogueEntry, ToolCategory, ToolDefinition } from "./tool-definition.ts";
export { ToolInputError } from "./tool-input-error.ts";
export type { ToolInputIssue } from "./tool-input-error.ts";
export { builtinTools, createToolRegistry } from "./builtin-tools.ts";
export type { BuiltinTool, BuiltinToolOutput } from "./builtin-tools.ts";
export { executeTool } from "./execute-tool.ts";
export { toolFailure } from "./tool-failure.ts";
export type { ToolFailureType } from "./tool-failure.ts";
export { defineTool } from "./tool-module.ts";
export type { ToolContext, ToolModule, ToolServices, ToolUnavailable } from "./tool-module.ts";
export { ToolRegistry } from "./tool-registry.ts";
