import { WorkflowUpdateFailedError, ApplicationFailure } from "@temporalio/client";
import { templateVersion } from "../agents/template-version.ts";
import type { AgentTemplate } from "../orchestration/index.ts";
import { upgradeTemplateUpdate, type UpgradeOutcome } from "../session/template-upgrade.ts";
import { SessionRequestError, type SessionClient } from "./session-client.ts";

export interface UpgradeOptions {
  /** Allow a template of another agent (the session's agent id changes with it). */
  force?: boolean;
}

/**
 * Asks a running session to move to `template` at its next turn boundary and waits until it has
 * (a turn in progress finishes under the old template first). The session's validator refuses
 * another agent's template unless forced, a template it cannot run, and an ended session, with
 * the reason as a SessionRequestError; nothing reaches history then. Upgrading to the version the
 * session already runs changes nothing and answers `changed: false`.
 */
export async function upgradeSession(
  sessions: SessionClient,
  sessionId: string,
  template: AgentTemplate,
  options: UpgradeOptions = {},
): Promise<UpgradeOutcome> {
  try {
    return await sessions.handle(sessionId).executeUpdate(upgradeTemplateUpdate, {
      args: [
        {
          template,
          templateVersion: templateVersion(template),
          ...(options.force === true ? { force: true } : {}),
        },
      ],
    });
  } catch (error) {
    if (error instanceof WorkflowUpdateFailedError && error.cause instanceof Error) {
      const type = error.cause instanceof ApplicationFailure ? error.cause.type : undefined;
      throw new SessionRequestError(error.cause.message, { cause: error, type: type ?? undefined });
    }
    throw error;
  }
}
