import { NativeConnection } from "@temporalio/worker";
import type { Client } from "@temporalio/client";
import { SessionClient } from "../../../src/client/index.ts";
import { createModelProvider } from "../../../src/llm/model-provider.ts";
import { createSessionWorker } from "../../../src/worker/session-worker.ts";
import { testModelAccess } from "../../support/test-model-access.ts";
import { sharedBundle } from "../../support/temporal-env.ts";
import { withLatencyProvider } from "./latency-model.ts";

export interface LatencySessions {
  sessions: SessionClient;
  close(): Promise<void>;
}

/**
 * Sessions served by a worker whose scripted model waits `latencyMs` before every answer: the
 * session worker the bench env runs (same bundle, default options), with only its model wrapped,
 * on a task queue of its own.
 */
export async function startLatencySessions(
  client: Client,
  server: { address: string; namespace: string },
  latencyMs: number,
): Promise<LatencySessions> {
  const taskQueue = `bench-sessions-${latencyMs}ms-model`;
  const connection = await NativeConnection.connect({ address: server.address });
  const worker = await createSessionWorker({
    connection,
    namespace: server.namespace,
    taskQueue,
    modelProvider: withLatencyProvider(
      createModelProvider({ scripted: {} }, testModelAccess),
      latencyMs,
    ),
    workflowBundle: await sharedBundle(),
  });
  const running = worker.run();
  return {
    sessions: new SessionClient(client, taskQueue),
    close: async () => {
      if (worker.getState() === "RUNNING") worker.shutdown();
      await running;
      await connection.close();
    },
  };
}
