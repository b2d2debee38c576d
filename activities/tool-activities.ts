import type { LanguageModel } from "ai";
import { createHttpPageReader } from "../src/search/index.ts";
import type { SearchProvider } from "../src/search/index.ts";
import { createToolRegistry, executeTool, ToolInputError } from "../src/tools/index.ts";
import type { ToolContext, ToolRegistry, ToolServices } from "../src/tools/index.ts";
import { withHeartbeat } from "./activity-heartbeat.ts";
import { pluginToolDefinitions } from "./plugin-tool-definitions.ts";
import { toolInputFailure, unknownToolFailure } from "./tool-failures.ts";
import type { RunToolInput, ToolActivities, ToolOutput } from "./tool-types.ts";

export interface ToolActivityDeps {
  /** Absent when search is not configured: `search` then fails with `SearchNotConfigured`. */
  searchProvider?: SearchProvider;
  /** Resolves the session's model id, for tools that call a model themselves (`summarize`). */
  summarizeModel: (modelId: string) => LanguageModel;
  /** The tools this worker runs; the built-in ones when omitted. */
  registry?: ToolRegistry;
}

/**
 * The tool activities, bound to their dependencies. Register the returned
 * object with the worker; workflows proxy it as `ToolActivities`.
 */
export function createToolActivities(deps: ToolActivityDeps): ToolActivities {
  const registry = deps.registry ?? createToolRegistry();
  const services: ToolServices = {
    ...(deps.searchProvider === undefined ? {} : { searchProvider: deps.searchProvider }),
    pageReader: createHttpPageReader(),
  };
  return {
    runTool: async (args: RunToolInput): Promise<ToolOutput> => {
      try {
        return await runRegisteredTool(registry, services, args, deps);
      } catch (error) {
        if (error instanceof ToolInputError) {
          throw toolInputFailure(error);
        }
        throw error;
      }
    },
    checkToolAvailability: ({ tools, describePlugins }) =>
      Promise.resolve({
        unavailable: registry.unavailable(tools, services),
        ...(describePlugins === true
          ? { pluginTools: pluginToolDefinitions(registry, tools) }
          : {}),
      }),
  };
}

async function runRegisteredTool(
  registry: ToolRegistry,
  services: ToolServices,
  args: RunToolInput,
  deps: ToolActivityDeps,
): Promise<ToolOutput> {
  const module = registry.find(args.tool);
  if (module === undefined) {
    throw unknownToolFailure(args.tool, registry.names);
  }
  const context = (signal: AbortSignal | undefined): ToolContext => ({
    services,
    sessionModel: () => deps.summarizeModel(args.modelId),
    signal,
    sessionId: args.sessionId,
    toolCallId: args.toolCallId,
  });
  const details = { tool: args.tool, toolCallId: args.toolCallId };
  const output =
    module.runsLong === true
      ? await withHeartbeat(details, (signal) =>
          Promise.resolve(executeTool(module, args.input, context(signal))),
        )
      : await executeTool(module, args.input, context(undefined));
  // A registered module's result is plain JSON; typed as the built-in tools' results for callers.
  return output as ToolOutput;
}
