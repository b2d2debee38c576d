import { WorkflowNotFoundError } from "@temporalio/client";
import { isEndedSessionError, SessionRequestError } from "../client/index.ts";
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
