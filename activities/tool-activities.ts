import type { LanguageModel } from "ai";
import { createHttpPageReader } from "../src/search/index.ts";
import type { SearchProvider } from "../src/search/index.ts";
import { createToolRegistry, executeTool, ToolInputError } from "../src/tools/index.ts";
import type { ToolContext, ToolRegistry, ToolServices } from "../src/tools/index.ts";
import { withHeartbeat } from "./activity-heartbeat.ts";
import { pluginToolDefinitions } from "./plugin-tool-definitions.ts";
import { runPureTool } from "./pure-tool-activity.ts";
import { toolInputFailure, unknownToolFailure } from "./tool-failures.ts";
import {
  sameAvailability,
  type ToolAvailability,
  type ToolAvailabilityInput,
} from "./tool-availability.ts";
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
    runPureTool,
    // The cast states what the branch shows: `unchanged` only ever answers a `known` answer.
    checkToolAvailability: (async ({ tools, describePlugins, known }: ToolAvailabilityInput) => {
      const answer = await checkAvailability(registry, services, tools, describePlugins === true);
      return known !== undefined && sameAvailability(answer, known) ? { unchanged: true } : answer;
    }) as ToolActivities["checkToolAvailability"],
  };
}

/**
 * Built-in and plug-in tools answer from their modules; tools of a run-time source (MCP servers)
 * are asked for, which reconnects a server that is down (bounded by its connect timeout).
 */
async function checkAvailability(
  registry: ToolRegistry,
  services: ToolServices,
  tools: readonly string[],
  describePlugins: boolean,
): Promise<ToolAvailability> {
  const unavailable = registry.unavailable(tools, services);
  const external = tools.filter((name) => registry.sourceFor(name) !== undefined);
  if (!describePlugins) {
    // The session cannot offer a tool it is not told about: it started before they were.
    for (const name of external) unavailable[name] = oldSessionReason;
    return { unavailable };
  }
  const source = external[0] === undefined ? undefined : registry.sourceFor(external[0]);
  const checked =
    source === undefined ? { unavailable: {}, definitions: [] } : await source.check(external);
  const described = [...pluginToolDefinitions(registry, tools), ...checked.definitions];
  const order = (name: string): number => tools.indexOf(name);
  return {
    unavailable: { ...unavailable, ...checked.unavailable },
    pluginTools: described.sort((a, b) => order(a.name) - order(b.name)),
  };
}

const oldSessionReason =
  "not offered in this session: it started before this worker offered MCP tools; start a new session to use them";

async function runRegisteredTool(
  registry: ToolRegistry,
  services: ToolServices,
  args: RunToolInput,
  deps: ToolActivityDeps,
): Promise<ToolOutput> {
  const source = registry.sourceFor(args.tool);
  if (source !== undefined) {
    const details = { tool: args.tool, toolCallId: args.toolCallId };
    // Run-time tools wait on their server: heartbeat, and stop the call when cancelled.
    const output = await withHeartbeat(details, (signal) =>
      source.run(args.tool, args.input, signal),
    );
    return output as ToolOutput;
  }
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
