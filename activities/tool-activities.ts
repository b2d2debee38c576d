import type { LanguageModel } from "ai";
import type { SearchProvider } from "../src/search/index.ts";
import {
  isCognitiveToolName,
  runCognitiveTool,
  toolCatalogue,
  ToolInputError,
} from "../src/tools/index.ts";
import { withHeartbeat } from "./activity-heartbeat.ts";
import { runSearchTool } from "./run-search-tool.ts";
import { runSummarizeTool } from "./run-summarize-tool.ts";
import { unavailableTools } from "./tool-availability.ts";
import { toolInputFailure, unknownToolFailure } from "./tool-failures.ts";
import type { RunToolInput, ToolActivities, ToolOutput } from "./tool-types.ts";

export interface ToolActivityDeps {
  /** Absent when search is not configured: `search` then fails with `SearchNotConfigured`. */
  searchProvider?: SearchProvider;
  /** Resolves the session's model id for `summarize`. */
  summarizeModel: (modelId: string) => LanguageModel;
}

/**
 * The tool activities, bound to their dependencies. Register the returned
 * object with the worker; workflows proxy it as `ToolActivities`.
 */
export function createToolActivities(deps: ToolActivityDeps): ToolActivities {
  return {
    runTool: async (args: RunToolInput): Promise<ToolOutput> => {
      try {
        return await dispatch(args, deps);
      } catch (error) {
        if (error instanceof ToolInputError) {
          throw toolInputFailure(error);
        }
        throw error;
      }
    },
    checkToolAvailability: ({ tools }) =>
      Promise.resolve({
        unavailable: unavailableTools(tools, {
          searchConfigured: deps.searchProvider !== undefined,
        }),
      }),
  };
}

async function dispatch(args: RunToolInput, deps: ToolActivityDeps): Promise<ToolOutput> {
  const { tool, input } = args;
  if (isCognitiveToolName(tool)) {
    return runCognitiveTool(tool, input);
  }
  const details = { tool, toolCallId: args.toolCallId };
  switch (tool) {
    case "summarize":
      return withHeartbeat(details, (signal) =>
        runSummarizeTool(input, () => deps.summarizeModel(args.modelId), signal),
      );
    case "search":
      return withHeartbeat(details, (signal) => runSearchTool(input, deps.searchProvider, signal));
    default:
      throw unknownToolFailure(
        tool,
        toolCatalogue.map((definition) => definition.name),
      );
  }
}
