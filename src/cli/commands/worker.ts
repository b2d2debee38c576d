import { NativeConnection } from "@temporalio/worker";
import { z } from "zod";
import type { Command } from "../cli-context.ts";
import { cliSettings } from "../cli-env.ts";
import { parseCommandArgs } from "../command-args.ts";
import { connectOrExplain, connectSettings } from "../connect.ts";
import { ExitCode, exitCodesHelp } from "../exit-codes.ts";
import { writeLine } from "../output.ts";
import { CACHED_SESSION_MIB, WORKER_BASE_MIB } from "../../worker/workflow-cache-size.ts";
import {
  createConfiguredWorker,
  loadWorkerTools,
  runUntilInterrupted,
  workerMemoryBudget,
} from "../session-worker-run.ts";
import {
  checkSearchAttributes,
  registerSearchAttributesSetting,
  searchAttributesHelp,
} from "../search-attributes-check.ts";

const help = `Usage: agentdock-temporal worker

Runs a worker: the agentSession workflow, the model activities and the tool activities, on one
task queue of the Temporal the environment points at, until Ctrl-C (graceful: running activities
get 10 s to finish). Run as many as you like; sessions survive any of them stopping.

Environment:
  TEMPORAL_ADDRESS, TEMPORAL_NAMESPACE, TEMPORAL_API_KEY, TEMPORAL_TLS_*, TEMPORAL_PROFILE
                          Temporal's environment configuration (default 127.0.0.1:7233, "default")
  AGENTDOCK_TASK_QUEUE    task queue (default "agentdock")
  AGENTDOCK_WORKER_MEMORY_MB
                          the memory (MiB) the worker may use; the number of sessions it keeps
                          cached is derived from it (~${WORKER_BASE_MIB} MiB for the worker, ~${CACHED_SESSION_MIB} MiB
                          per cached session) and printed at start (default: half the machine's or
                          the cgroup's memory, at most V8's heap limit)
${searchAttributesHelp}
  OPENAI_API_KEY, OPENAI_BASE_URL, ANTHROPIC_API_KEY, ANTHROPIC_BASE_URL,
  OPENAI_COMPATIBLE_BASE_URL, OPENAI_COMPATIBLE_API_KEY, GEMINI_API_KEY (or
  GOOGLE_GENERATIVE_AI_API_KEY), GEMINI_BASE_URL, GROQ_API_KEY, GROQ_BASE_URL,
  DEEPSEEK_API_KEY, DEEPSEEK_BASE_URL, CEREBRAS_API_KEY, CEREBRAS_BASE_URL
                          model providers (the scripted model needs none)
  SEARCH_PROVIDER=searxng, SEARXNG_URL
                          the search tool's provider (without one, search fails with a clear error)
  AGENTDOCK_ALLOWED_PROVIDERS
                          providers sessions may use, comma-separated (default: all)
  AGENTDOCK_ALLOWED_BASE_URLS
                          more base URLs a template's llm.baseURL may name, comma-separated, besides
                          the providers' own and those of the templates in the agents folders
  AGENTDOCK_TOOL_DIRS     folders (separated like PATH) whose .ts, .mts, .js and .mjs files are tool
                          plug-ins; the worker refuses to start if one is broken
  AGENTDOCK_TOOL_MODULES  more plug-in modules, comma-separated: package names or module files
  AGENTDOCK_MCP_SERVERS   a JSON file of MCP servers ({"mcpServers": {...}}) whose tools sessions may
                          use as mcp.<server>.<tool>; a broken file stops the worker, a server that
                          is down does not (its tools are unavailable until it answers)
  AGENTDOCK_SCRIPT_DIRS   folders (separated like PATH) whose scripts "script:<path>" models may
                          play, besides the agents folders (shipped agents/, AGENTDOCK_AGENTS_DIR)

${exitCodesHelp}`;

export const workerCommand: Command = {
  name: "worker",
  summary: "run a worker on the configured Temporal until Ctrl-C",
  help,
  async run(argv, context) {
    const args = parseCommandArgs(
      workerCommand,
      argv,
      { options: {}, schema: z.object({}) },
      context,
    );
    if (args === undefined) return ExitCode.ok;
    const { taskQueue } = cliSettings(context);
    const register = registerSearchAttributesSetting(context.env);
    const memoryBudgetMiB = workerMemoryBudget(context);
    const toolRegistry = await loadWorkerTools(context);
    const settings = connectSettings(context);
    const connection = await connectOrExplain(settings.address, () =>
      NativeConnection.connect(settings.connectionOptions),
    );
    try {
      await checkSearchAttributes({
        connection,
        address: settings.address,
        namespace: settings.namespace,
        register,
        log: (line) => {
          writeLine(context.stderr, `worker: ${line}`);
        },
      });
      const worker = await createConfiguredWorker(context, {
        connection,
        namespace: settings.namespace,
        taskQueue,
        toolRegistry,
        ...(memoryBudgetMiB === undefined ? {} : { memoryBudgetMiB }),
      });
      writeLine(
        context.stderr,
        `worker: polling task queue "${taskQueue}" on ${settings.address} (namespace ${settings.namespace})`,
      );
      await runUntilInterrupted(worker, context, "worker", toolRegistry);
    } finally {
      await connection.close();
    }
    writeLine(context.stderr, "worker: stopped");
    return ExitCode.ok;
  },
};
