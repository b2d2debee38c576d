import { WorkflowNotFoundError } from "@temporalio/client";
import {
  isEndedSessionError,
  SessionRequestError,
  WORKFLOW_TASK_FAILING,
  workflowTaskFailing,
} from "../client/index.ts";
import { CliError } from "./cli-error.ts";
import type { Connected } from "./connect.ts";

/**
 * Runs a request to one session, turning "workflow not found" and a refused request into a
 * message that names the session and where it was looked for (exit 1).
 */
export async function onSession<T>(
  sessionId: string,
  connected: Connected,
  request: () => Promise<T>,
  hint = "agentdock-temporal sessions lists them",
): Promise<T> {
  try {
    return await request();
  } catch (error) {
    if (error instanceof WorkflowNotFoundError) {
      const where = `namespace ${connected.settings.namespace} at ${connected.settings.address}`;
      const message = isEndedSessionError(error)
        ? `session "${sessionId}" has already ended (${where})`
        : `no session "${sessionId}" in ${where} (${hint})`;
      throw new CliError(message, undefined, { cause: error });
    }
    if (error instanceof SessionRequestError && error.type === WORKFLOW_TASK_FAILING) {
      throw new CliError(error.message, undefined, { cause: error });
    }
    // A query (state, history, events) is refused at once while the workflow task fails.
    if (workflowTaskFailing(error)) {
      throw new CliError(
        `session "${sessionId}" cannot answer now: its workflow task is failing (Temporal retries it on its own; a worker overloaded, restarted or hitting an error). Check the worker's log, then ask again in a few seconds`,
        undefined,
        { cause: error },
      );
    }
    if (error instanceof SessionRequestError) {
      throw new CliError(
        `session "${sessionId}" refused the request: ${error.message}`,
        undefined,
        {
          cause: error,
        },
      );
    }
    throw error;
  }
}
