import { fileURLToPath } from "node:url";
import type { ProviderV4 } from "@ai-sdk/provider";
import { AiSdkPlugin } from "@temporalio/ai-sdk";
import type { Duration } from "@temporalio/common";
import {
  bundleWorkflowCode,
  type BundleOptions,
  NativeConnection,
  Worker,
  type Logger,
  type WorkerPlugin,
  type WorkflowBundle,
} from "@temporalio/worker";
import { createInvokeModelStreaming } from "../../activities/invoke-model-streaming.ts";
import { createToolActivities } from "../../activities/tool-activities.ts";
import { withWireToolNamesProvider } from "../llm/tool-wire-names.ts";
import type { SearchProvider } from "../search/index.ts";
import { createToolRegistry, type ToolRegistry } from "../tools/index.ts";
import { withClassifiedFailures } from "./classify-model-failures.ts";
import { livenessHeartbeat } from "./liveness-heartbeat.ts";
import { ModelCallStore } from "./model-call-store.ts";
import { createRedactor, type Redactor } from "./redact-secrets.ts";
import { redactingInterceptor } from "./redacting-interceptor.ts";
import { CACHED_SESSION_MIB, WORKER_BASE_MIB, workflowCacheSize } from "./workflow-cache-size.ts";

export const workflowsPath = fileURLToPath(new URL("../../workflows/index.ts", import.meta.url));
/** The tolerant payload converter: workers and bundles (replay included) must use the same one. */
export const payloadConverterPath = fileURLToPath(
  new URL("../session/payload-converter.ts", import.meta.url),
);

export interface SessionWorkerOptions {
  connection: NativeConnection;
  namespace: string;
  taskQueue: string;
  modelProvider: ProviderV4;
  /**
   * Values to redact from every activity error and model stream part, besides key-shaped
   * strings: the worker's configured secrets (`secretsFromEnv`) and its providers' API keys.
   */
  secrets?: readonly string[];
  searchProvider?: SearchProvider;
  /**
   * The tools this worker runs and reports as available: the built-in ones when omitted. The
   * workflow offers the model the built-in modules' definitions (it cannot load worker code), so
   * a tool registered beyond them runs here but is not offered until its definition reaches the
   * workflow through history (the plug-in work).
   */
  toolRegistry?: ToolRegistry;
  /**
   * Where the start-up report of the registry's run-time tools goes (MCP servers: their tools,
   * or why one is down); dropped when omitted.
   */
  report?: (line: string) => void;
  /** A prebuilt bundle (tests and benchmarks bundle once); built on start otherwise. */
  workflowBundle?: WorkflowBundle;
  /**
   * The memory (MiB) the worker may use; the workflow cache is sized from it
   * (`workflowCacheSize`). Half the machine's or the cgroup's memory when omitted.
   */
  memoryBudgetMiB?: number;
  /** Graceful shutdown: how long running activities get to finish. */
  shutdownGraceTime?: Duration;
}

/**
 * Modules every session's workflow shares instead of evaluating its own copy. With the SDK's
 * reusable V8 context each workflow otherwise re-runs every module of the bundle: zod, the AI SDK
 * and our schemas and tool definitions (tens of thousands of objects, ~3 MB of heap per cached
 * session). These hold no per-workflow state (their module-level caches map a pattern to its
 * compiled form, the same for every session), and the SDK freezes their exports.
 */
export const sharedWorkflowModules: readonly string[] = [
  "zod",
  "ai",
  "@ai-sdk/provider",
  "@ai-sdk/provider-utils",
  "re2js",
  // The files the workflow code's `import`s resolve to: a bare name in the preload list is a
  // `require`, which resolves to a package's CommonJS build, a second copy beside the shared one.
].map((name) => fileURLToPath(import.meta.resolve(name)));

/**
 * Our own preloaded module: the memo through which our modules' zod schemas are built once per
 * worker rather than once per session (`sharedAcrossSessions`). The schema modules themselves
 * cannot be preloaded: the SDK deep-freezes preloaded exports, and zod defines some of a
 * schema's properties on first use.
 */
export const sharedAcrossSessionsModule = fileURLToPath(
  new URL("../orchestration/shared-across-sessions.ts", import.meta.url),
);

const preloadedModules: readonly string[] = [...sharedWorkflowModules, sharedAcrossSessionsModule];

/**
 * The preload list is a list of `require`s whose results go unused, which webpack drops for
 * packages that declare `"sideEffects": false` (zod, the AI SDK): the modules would then load
 * per workflow again, silently.
 */
type WebpackConfig = Parameters<NonNullable<BundleOptions["webpackConfigHook"]>>[0];

function keepPreloadedModules(config: WebpackConfig): WebpackConfig {
  const preloaded = { include: [...preloadedModules], sideEffects: true };
  return {
    ...config,
    module: { ...config.module, rules: [...(config.module?.rules ?? []), preloaded] },
  };
}

function aiSdkPlugin(modelProvider: ProviderV4, redactor: Redactor): AiSdkPlugin {
  // Wire names outermost: the classified, redacted model sees the names the provider sees.
  return new AiSdkPlugin({
    modelProvider: withWireToolNamesProvider(withClassifiedFailures(modelProvider, redactor)),
  });
}

/**
 * Registers the sessions' own model activity under the AI SDK plugin's name, after the plugin
 * (plugins apply in order, and a plugin's activities replace same-named ones): activities that
 * sessions scheduled with either input form keep running on a new worker.
 */
function sessionModelActivity(
  modelProvider: ProviderV4,
  redactor: Redactor,
  offered: ModelCallStore,
): WorkerPlugin {
  const invokeModelStreaming = createInvokeModelStreaming(
    withWireToolNamesProvider(withClassifiedFailures(modelProvider, redactor)),
    offered,
  );
  return {
    name: "SessionModelActivity",
    configureWorker: (options) => ({
      ...options,
      activities: { ...options.activities, invokeModelStreaming },
      sinks: { ...options.sinks, ...offered.sinks() },
    }),
  };
}

/** The workflow bundle, built with the AI SDK plugin's polyfills (needed for replay too). */
export async function bundleSessionWorkflows(
  options: { logger?: Logger } = {},
): Promise<WorkflowBundle> {
  const placeholder: ProviderV4 = {
    specificationVersion: "v4",
    languageModel: () => {
      throw new Error("bundling only");
    },
    embeddingModel: () => {
      throw new Error("bundling only");
    },
    imageModel: () => {
      throw new Error("bundling only");
    },
  };
  return bundleWorkflowCode({
    workflowsPath,
    payloadConverterPath,
    plugins: [aiSdkPlugin(placeholder, createRedactor([]))],
    preloadModules: [...preloadedModules],
    webpackConfigHook: keepPreloadedModules,
    ...(options.logger === undefined ? {} : { logger: options.logger }),
  });
}

/** A worker for agent sessions: the workflow, the model activities and the tool activities. */
export async function createSessionWorker(options: SessionWorkerOptions): Promise<Worker> {
  const provider = options.modelProvider;
  const registry = options.toolRegistry ?? createToolRegistry();
  const redactor = createRedactor([...(options.secrets ?? []), ...registry.sourceSecrets()]);
  // Bounded per server, and a server that is down is reported, not fatal.
  for (const line of await registry.connectSources()) options.report?.(line);
  const activities = createToolActivities({
    registry,
    ...(options.searchProvider === undefined ? {} : { searchProvider: options.searchProvider }),
    summarizeModel: (modelId) => withClassifiedFailures(provider, redactor).languageModel(modelId),
  });
  const cache = workflowCacheSize(options.memoryBudgetMiB);
  options.report?.(
    `workflow cache: ${cache.maxCachedWorkflows} sessions (memory budget ${cache.budgetMiB} MiB: ${cache.budgetSource}; ~${WORKER_BASE_MIB} MiB for the worker, ~${CACHED_SESSION_MIB} MiB per cached session)`,
  );
  try {
    return await Worker.create({
      connection: options.connection,
      namespace: options.namespace,
      taskQueue: options.taskQueue,
      ...(options.workflowBundle === undefined
        ? {
            workflowsPath,
            bundlerOptions: {
              preloadModules: [...preloadedModules],
              webpackConfigHook: keepPreloadedModules,
            },
          }
        : { workflowBundle: options.workflowBundle }),
      activities,
      dataConverter: { payloadConverterPath },
      plugins: [
        aiSdkPlugin(provider, redactor),
        sessionModelActivity(provider, redactor, new ModelCallStore()),
      ],
      interceptors: { activity: [livenessHeartbeat, redactingInterceptor(redactor)] },
      // A cancel reaches a running activity only in the answer to a heartbeat the worker sends,
      // and it holds heartbeats back for 80 % of the heartbeat timeout (12 s for model calls):
      // a stopped turn's model call would keep streaming for that long. A heartbeat a second
      // per running call stops it within about a second; a short call sends only its first.
      maxHeartbeatThrottleInterval: "1 second",
      shutdownGraceTime: options.shutdownGraceTime ?? "10 seconds",
      maxCachedWorkflows: cache.maxCachedWorkflows,
    });
  } catch (error) {
    // A worker that never runs never closes them: the stdio servers started above would keep
    // the process alive after the error is reported.
    await registry.closeSources();
    throw error;
  }
}
