import type { NativeConnection, Worker } from "@temporalio/worker";
import { createSearchProvider, searchConfigFromEnv } from "../search/index.ts";
import { builtinTools, type ToolRegistry } from "../tools/index.ts";
import { createSessionWorker } from "../worker/session-worker.ts";
import { workerMemorySetting } from "../worker/workflow-cache-size.ts";
import { usageError } from "./cli-error.ts";
import { agentsDirs } from "./agent-dirs.ts";
import type { CliContext } from "./cli-context.ts";
import { cliToolRegistry } from "./cli-tool-registry.ts";
import { writeLine } from "./output.ts";
import { workerModelSetup } from "./worker-model-setup.ts";

const builtinNames = new Set<string>(builtinTools.map((tool) => tool.name));

function workerWarning(context: CliContext): (line: string) => void {
  return (line) => {
    writeLine(context.stderr, `worker: warning: ${line}`);
  };
}

/**
 * The worker's tools (built-in plus plug-ins). Loaded before connecting to Temporal, so a broken
 * plug-in is reported as what it is, whether or not Temporal is reachable.
 */
export function loadWorkerTools(context: CliContext): Promise<ToolRegistry> {
  return cliToolRegistry(context, workerWarning(context));
}

/** AGENTDOCK_WORKER_MEMORY_MB, or a usage error naming it, its value and the fix. */
export function workerMemoryBudget(context: CliContext): number | undefined {
  try {
    return workerMemorySetting(context.env);
  } catch (error) {
    throw usageError((error as Error).message);
  }
}

/** A session worker with the model providers and search provider the environment configures. */
export async function createConfiguredWorker(
  context: CliContext,
  options: {
    connection: NativeConnection;
    namespace: string;
    taskQueue: string;
    /** Loaded from the environment when omitted. */
    toolRegistry?: ToolRegistry;
    /** AGENTDOCK_WORKER_MEMORY_MB when omitted. */
    memoryBudgetMiB?: number;
  },
): Promise<Worker> {
  const memoryBudgetMiB = options.memoryBudgetMiB ?? workerMemoryBudget(context);
  const searchProvider = createSearchProvider(searchConfigFromEnv(context.env));
  const warn = workerWarning(context);
  const toolRegistry = options.toolRegistry ?? (await loadWorkerTools(context));
  const plugins = toolRegistry.tools.filter((tool) => !builtinNames.has(tool.name));
  if (plugins.length > 0) {
    const listed = plugins.map(({ name, category }) => `${name} (${category})`).join(", ");
    writeLine(context.stderr, `worker: plug-in tools: ${listed}`);
  }
  const { modelProvider, secrets } = workerModelSetup(
    context.env,
    agentsDirs(context),
    warn,
    toolRegistry.catalogueEntries(),
  );
  return createSessionWorker({
    ...options,
    modelProvider,
    secrets,
    toolRegistry,
    report: (line) => {
      writeLine(context.stderr, `worker: ${line}`);
    },
    ...(searchProvider === undefined ? {} : { searchProvider }),
    ...(memoryBudgetMiB === undefined ? {} : { memoryBudgetMiB }),
  });
}

/**
 * Runs the worker until Ctrl-C or SIGTERM, then shuts it down gracefully (running activities get
 * their grace time) and closes `toolRegistry`'s connections (MCP servers). Resolves when it has
 * stopped; rejects if the worker fails.
 */
export async function runUntilInterrupted(
  worker: Worker,
  context: CliContext,
  label: string,
  toolRegistry?: ToolRegistry,
): Promise<void> {
  const stop = (): void => {
    if (worker.getState() !== "RUNNING") return;
    writeLine(context.stderr, `${label}: shutting down (running activities get 10 s to finish)…`);
    worker.shutdown();
  };
  process.on("SIGINT", stop);
  process.on("SIGTERM", stop);
  try {
    await worker.run();
  } finally {
    process.removeListener("SIGINT", stop);
    process.removeListener("SIGTERM", stop);
    // After the activities finished: stops the MCP servers the worker started.
    await toolRegistry?.closeSources();
  }
}
