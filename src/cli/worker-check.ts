import proto from "@temporalio/proto";
import type { CliContext } from "./cli-context.ts";
import type { Connected } from "./connect.ts";
import { writeLine } from "./output.ts";

const { TaskQueueKind, TaskQueueType } = proto.temporal.api.enums.v1;

/**
 * Without a worker a turn waits silently until one starts: say so up front (a warning, since a
 * worker may be starting right now).
 */
export async function warnIfNoWorker(connected: Connected, context: CliContext): Promise<void> {
  const response = await connected.client.workflowService.describeTaskQueue({
    namespace: connected.settings.namespace,
    taskQueue: { name: connected.taskQueue, kind: TaskQueueKind.TASK_QUEUE_KIND_NORMAL },
    taskQueueType: TaskQueueType.TASK_QUEUE_TYPE_WORKFLOW,
  });
  if (response.pollers.length > 0) return;
  writeLine(
    context.stderr,
    `warning: no worker polls task queue "${connected.taskQueue}" on ${connected.settings.address}; ` +
      "the message waits until one starts (agentdock-temporal worker, or agentdock-temporal dev).",
  );
}
