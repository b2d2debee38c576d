import { fileURLToPath } from "node:url";
import type { ProviderV4 } from "@ai-sdk/provider";
import { AiSdkPlugin } from "@temporalio/ai-sdk";
import type { Duration } from "@temporalio/common";
import {
  bundleWorkflowCode,
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
  /** Graceful shutdown: how long running activities get to finish. */
  shutdownGraceTime?: Duration;
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
  try {
    return await Worker.create({
      connection: options.connection,
      namespace: options.namespace,
      taskQueue: options.taskQueue,
      ...(options.workflowBundle === undefined
        ? { workflowsPath }
        : { workflowBundle: options.workflowBundle }),
      activities,
      dataConverter: { payloadConverterPath },
      plugins: [
        aiSdkPlugin(provider, redactor),
        sessionModelActivity(provider, redactor, new ModelCallStore()),
      ],
      interceptors: { activity: [livenessHeartbeat, redactingInterceptor(redactor)] },
      shutdownGraceTime: options.shutdownGraceTime ?? "10 seconds",
    });
  } catch (error) {
    // A worker that never runs never closes them: the stdio servers started above would keep
    // the process alive after the error is reported.
    await registry.closeSources();
    throw error;
  }
}
