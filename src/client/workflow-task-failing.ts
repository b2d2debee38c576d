/** gRPC's FAILED_PRECONDITION, which Temporal's WorkflowNotReady travels as. */
const FAILED_PRECONDITION = 9;

const failedState = /Workflow Task in failed state/i;

/**
 * Whether `error` (or a cause) is the server refusing an update or query because the session's
 * workflow task keeps failing: from its third attempt on, Temporal answers "Unable to perform
 * workflow execution update due to Workflow Task in failed state" without asking a worker. The
 * task is retried on its own (an overloaded worker let it time out, a worker restarted, a
 * transient error), so the request is worth sending again after a pause; nothing reached the
 * workflow, and a message id counts once anyway.
 */
export function workflowTaskFailing(error: unknown): boolean {
  for (let current = error, depth = 0; current instanceof Error && depth < 5; depth++) {
    const code = (current as { code?: unknown }).code;
    if (failedState.test(current.message) && (code === undefined || code === FAILED_PRECONDITION))
      return true;
    current = current.cause;
  }
  return false;
}

/** What a person reads when a session's workflow task is still failing after the client waited. */
export function workflowTaskFailingAdvice(sessionId: string, waitedMs: number): string {
  return (
    `session "${sessionId}" cannot take requests: its workflow task has been failing for ` +
    `${Math.round(waitedMs / 1000)} s (Temporal retries it on its own; a worker overloaded, ` +
    `restarted or hitting an error). Nothing reached the session: check the worker's ` +
    `log for the task's error, then send it again (a repeated message id is answered once)`
  );
}
