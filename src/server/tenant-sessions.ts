import type { SessionClient } from "../client/index.ts";
import { ApiError, toApiError } from "./api-error.ts";

/** What a tenant is told about a session it may not see: exactly what a missing one answers. */
export function unknownSession(sessionId: string, cause?: unknown): ApiError {
  return new ApiError(404, "unknown_session", `no session "${sessionId}"`, { cause });
}

/**
 * The session as its tenant sees it: 404 (the same answer as for no session at all) when it does
 * not exist or belongs to another tenant. A session's tenant is fixed at start, so checking it
 * before acting cannot race with a change of owner.
 */
export async function tenantSession(
  sessions: SessionClient,
  sessionId: string,
  tenant: string,
): Promise<{ agentId: string | undefined; running: boolean }> {
  let owner: Awaited<ReturnType<SessionClient["owner"]>>;
  try {
    owner = await sessions.owner(sessionId);
  } catch (error) {
    throw toApiError(error, sessionId);
  }
  if (owner?.tenant !== tenant) throw unknownSession(sessionId);
  return owner;
}
