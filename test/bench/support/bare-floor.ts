import { fileURLToPath } from "node:url";
import { WithStartWorkflowOperation, type Client } from "@temporalio/client";
import { bundleWorkflowCode, DefaultLogger, NativeConnection, Worker } from "@temporalio/worker";
import { bareActivities } from "./bare-activities.ts";
import { bareTurnUpdate, type bareSessionWorkflow } from "./bare-workflow.ts";

const workflowsPath = fileURLToPath(new URL("./bare-workflow.ts", import.meta.url));

export interface BareFloor {
  /** One turn of `activities` no-op activities, starting the workflow if needed (update-with-start). */
  runTurn(workflowId: string, activities: number): Promise<number>;
  close(): Promise<void>;
}

/**
 * The bare workflow's worker, in this process beside the session worker, on its own task queue
 * of the same dev server, with the SDK's default options (as the session worker has): the same
 * server, process and conditions as the durable turn it is the floor of.
 */
export async function startBareFloor(
  client: Client,
  server: { address: string; namespace: string },
): Promise<BareFloor> {
  const taskQueue = "bench-bare-floor";
  const connection = await NativeConnection.connect({ address: server.address });
  const worker = await Worker.create({
    connection,
    namespace: server.namespace,
    taskQueue,
    workflowBundle: await bundleWorkflowCode({ workflowsPath, logger: new DefaultLogger("WARN") }),
    activities: bareActivities,
  });
  const running = worker.run();
  return {
    runTurn: (workflowId, activities) =>
      client.workflow.executeUpdateWithStart(bareTurnUpdate, {
        args: [activities],
        startWorkflowOperation: new WithStartWorkflowOperation<typeof bareSessionWorkflow>(
          "bareSessionWorkflow",
          { workflowId, taskQueue, workflowIdConflictPolicy: "USE_EXISTING" },
        ),
      }),
    close: async () => {
      if (worker.getState() === "RUNNING") worker.shutdown();
      await running;
      await connection.close();
    },
  };
}
