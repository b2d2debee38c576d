import { randomUUID } from "node:crypto";
import { after, before } from "node:test";
import { Client } from "@temporalio/client";
import { NativeConnection, type Worker, type WorkflowBundle } from "@temporalio/worker";
import { configuredBaseURLs } from "../../src/llm/model-access-env.ts";
import type { ModelAccess } from "../../src/llm/model-access.ts";
import { createModelProvider } from "../../src/llm/model-provider.ts";
import { providerSecrets, type ProviderConfig } from "../../src/llm/provider-config.ts";
import { SessionClient } from "../../src/client/index.ts";
import type { SearchProvider } from "../../src/search/index.ts";
import type { ToolRegistry } from "../../src/tools/index.ts";
import { bundleSessionWorkflows, createSessionWorker } from "../../src/worker/session-worker.ts";
import { testModelAccess } from "./test-model-access.ts";
import { connectClient } from "../../src/temporal-connection.ts";

/** The dev server global-setup started (see test/support/global-setup.ts). */
export function testServer(): { address: string; namespace: string; cliPath: string } {
  const address = process.env["AGENTDOCK_TEST_TEMPORAL_ADDRESS"];
  const cliPath = process.env["AGENTDOCK_TEST_TEMPORAL_CLI"];
  if (address === undefined || cliPath === undefined) {
    throw new Error(
      "no test Temporal server: run through `npm test` (its global setup starts one)",
    );
  }
  return {
    address,
    namespace: process.env["AGENTDOCK_TEST_TEMPORAL_NAMESPACE"] ?? "default",
    cliPath,
  };
}

let bundle: Promise<WorkflowBundle> | undefined;
/** Bundling takes seconds: once per test file. */
export function sharedBundle(): Promise<WorkflowBundle> {
  bundle ??= bundleSessionWorkflows();
  return bundle;
}

export const uniqueId = (prefix: string): string => `${prefix}-${randomUUID().slice(0, 8)}`;

function accessFor(config: ProviderConfig, access: Partial<ModelAccess> = {}): ModelAccess {
  const merged = { ...testModelAccess, ...access };
  return { ...merged, baseURLs: [...merged.baseURLs, ...configuredBaseURLs(config)] };
}

export interface TestEnv {
  sessions: SessionClient;
  client: Client;
  taskQueue: string;
  /** Starts a worker on this env's task queue; stop it with the returned function. */
  startWorker(options?: {
    providerConfig?: ProviderConfig;
    /** Replaces parts of `testModelAccess`; the provider config's base URLs stay allowed. */
    modelAccess?: Partial<ModelAccess>;
    searchProvider?: SearchProvider;
    /** The worker's tools (built-in plus plug-ins); the built-in ones when omitted. */
    toolRegistry?: ToolRegistry;
  }): Promise<RunningWorker>;
  close(): Promise<void>;
}

export interface RunningWorker {
  worker: Worker;
  stop(): Promise<void>;
}

/** A client, a unique task queue and workers on demand, against the test server or `address`. */
export async function createTestEnv(
  options: { address?: string; taskQueue?: string } = {},
): Promise<TestEnv> {
  const { namespace } = testServer();
  const address = options.address ?? testServer().address;
  const connection = await connectClient({ address });
  const client = new Client({ connection, namespace });
  const taskQueue = options.taskQueue ?? uniqueId("test-queue");
  const workers: RunningWorker[] = [];
  const nativeConnections: NativeConnection[] = [];
  return {
    client,
    taskQueue,
    sessions: new SessionClient(client, taskQueue),
    startWorker: async (options = {}) => {
      const providerConfig = options.providerConfig ?? { scripted: {} };
      const nativeConnection = await NativeConnection.connect({ address });
      nativeConnections.push(nativeConnection);
      const worker = await createSessionWorker({
        connection: nativeConnection,
        namespace,
        taskQueue,
        modelProvider: createModelProvider(
          providerConfig,
          accessFor(providerConfig, options.modelAccess),
        ),
        secrets: providerSecrets(providerConfig),
        ...(options.searchProvider === undefined ? {} : { searchProvider: options.searchProvider }),
        ...(options.toolRegistry === undefined ? {} : { toolRegistry: options.toolRegistry }),
        workflowBundle: await sharedBundle(),
      });
      const running = worker.run();
      const handle: RunningWorker = {
        worker,
        stop: async () => {
          if (worker.getState() === "RUNNING") worker.shutdown();
          await running;
        },
      };
      workers.push(handle);
      return handle;
    },
    close: async () => {
      for (const worker of workers) await worker.stop();
      for (const nativeConnection of nativeConnections) await nativeConnection.close();
      await connection.close();
    },
  };
}

/**
 * For a test file's `describe`: a test env with one scripted-model worker, created before the
 * tests and closed after them. Read `.env` inside tests.
 */
export function useSessionEnv(): { readonly env: TestEnv } {
  let current: TestEnv | undefined;
  before(async () => {
    current = await createTestEnv();
    await current.startWorker();
  });
  after(async () => {
    await current?.close();
  });
  return {
    get env(): TestEnv {
      if (current === undefined) throw new Error("useSessionEnv: the env exists only inside tests");
      return current;
    },
  };
}
