import { join } from "node:path";
import { tmpdir } from "node:os";
import { getHeapStatistics, setFlagsFromString, writeHeapSnapshot } from "node:v8";
import { runInNewContext } from "node:vm";
import { Client } from "@temporalio/client";
import { fileURLToPath } from "node:url";
import { WithStartWorkflowOperation } from "@temporalio/client";
import {
  bundleWorkflowCode,
  DefaultLogger,
  NativeConnection,
  Worker,
  type WorkerOptions,
} from "@temporalio/worker";
import { bareActivities } from "./bare-activities.ts";
import { bareTurnUpdate, type bareSessionWorkflow } from "./bare-workflow.ts";
import { SessionClient } from "../../../src/client/index.ts";
import { createModelProvider } from "../../../src/llm/model-provider.ts";
import { connectClient } from "../../../src/temporal-connection.ts";
import { createSessionWorker } from "../../../src/worker/session-worker.ts";
import { shippedAgent } from "../../support/shipped-agents.ts";
import { sharedBundle, uniqueId } from "../../support/temporal-env.ts";
import { testModelAccess } from "../../support/test-model-access.ts";
import { shortMessage } from "./long-session.ts";

export interface HeapPerSession {
  /** Sessions the worker's cache held at each measurement. */
  cachedBefore: number;
  cachedAfter: number;
  heapBeforeBytes: number;
  heapAfterBytes: number;
  /** Heap added per cached session between the two measurements, after a full GC each. */
  bytesPerSession: number;
  /** Heap snapshot files at both points, when asked for (the caller deletes them). */
  snapshots: string[];
}

/** V8's gc(), made callable without --expose-gc on the command line. */
function fullGc(): void {
  setFlagsFromString("--expose-gc");
  const gc = runInNewContext("gc") as () => void;
  gc();
  gc();
}

/**
 * What one cached session costs the worker's heap: a session worker (scripted model) caches
 * `first` sessions (one short turn each of the cognitive-reasoner agent), the heap is measured
 * after a full GC, then `second - first` more and the heap again. Workflows run on this thread
 * (the SDK's debugMode, with the same reusable V8 context the worker threads use) so that their
 * heap is this process's heap.
 */
export async function measureHeapPerSession(options: {
  address: string;
  namespace: string;
  first: number;
  second: number;
  snapshots?: boolean;
  /**
   * `session` (default): our session workflow. `bare`: the SDK's floor, a session-shaped
   * workflow that runs 7 no-op activities per update-driven turn with no orchestration, model
   * or streaming (the `turn` benchmark's bare workflow), on a worker with the SDK's defaults.
   */
  workflow?: "session" | "bare";
}): Promise<HeapPerSession> {
  const taskQueue = uniqueId("heap-per-session");
  const inThisThread = {
    name: "heap-per-session-this-thread",
    configureWorker: (workerOptions: WorkerOptions): WorkerOptions => ({
      ...workerOptions,
      debugMode: true,
      maxCachedWorkflows: options.second + 10,
    }),
  };
  const connection = await NativeConnection.connect({
    address: options.address,
    plugins: [inThisThread],
  });
  const clientConnection = await connectClient({ address: options.address });
  const client = new Client({ connection: clientConnection, namespace: options.namespace });
  const bare = options.workflow === "bare";
  const worker = bare
    ? await Worker.create({
        connection,
        namespace: options.namespace,
        taskQueue,
        workflowBundle: await bundleWorkflowCode({
          workflowsPath: fileURLToPath(new URL("./bare-workflow.ts", import.meta.url)),
          logger: new DefaultLogger("WARN"),
        }),
        activities: bareActivities,
      })
    : await createSessionWorker({
        connection,
        namespace: options.namespace,
        taskQueue,
        modelProvider: createModelProvider({ scripted: {} }, testModelAccess),
        workflowBundle: await sharedBundle(),
      });
  const running = worker.run();
  const sessions = new SessionClient(client, taskQueue);
  const template = shippedAgent("cognitive-reasoner");
  const cacheSessions = async (count: number): Promise<void> => {
    const ids = Array.from({ length: count }, () => uniqueId("heap"));
    for (let start = 0; start < ids.length; start += 10) {
      await Promise.all(
        ids.slice(start, start + 10).map(async (sessionId) => {
          if (bare) {
            await client.workflow.executeUpdateWithStart(bareTurnUpdate, {
              args: [7],
              startWorkflowOperation: new WithStartWorkflowOperation<typeof bareSessionWorkflow>(
                "bareSessionWorkflow",
                { workflowId: sessionId, taskQueue, workflowIdConflictPolicy: "USE_EXISTING" },
              ),
            });
            return;
          }
          const result = await sessions.sendWithStart(
            { template, sessionId },
            shortMessage(1),
            "m1",
          );
          if (result.error !== undefined) throw new Error(`${sessionId}: ${result.error}`);
        }),
      );
    }
  };
  const snapshots: string[] = [];
  const measure = (label: string) => {
    fullGc();
    const heap = getHeapStatistics().used_heap_size;
    if (options.snapshots === true)
      snapshots.push(writeHeapSnapshot(join(tmpdir(), `${taskQueue}-${label}.heapsnapshot`)));
    return { heap, cached: worker.getStatus().numCachedWorkflows };
  };
  try {
    await cacheSessions(options.first);
    const before = measure("before");
    await cacheSessions(options.second - options.first);
    const after = measure("after");
    return {
      cachedBefore: before.cached,
      cachedAfter: after.cached,
      heapBeforeBytes: before.heap,
      heapAfterBytes: after.heap,
      bytesPerSession: (after.heap - before.heap) / (after.cached - before.cached),
      snapshots,
    };
  } finally {
    worker.shutdown();
    await running;
    await connection.close();
    await clientConnection.close();
  }
}
