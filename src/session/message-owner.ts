import { tenantOf } from "./tenants.ts";

/** Why a message may not enter a session; the type is what callers branch on. */
export interface OwnerMismatch {
  type: "AgentMismatch" | "TenantMismatch";
  message: string;
}

/**
 * Whether a message addressed to a session may enter it. Checked inside the workflow (update
 * validator and signal handler), so two callers racing to create one session id, or a caller of
 * another tenant, are refused atomically before anything reaches history. A message that names
 * neither (older callers) is not checked. The tenant refusal names nothing: to that caller the
 * session does not exist.
 */
export function ownerMismatch(
  message: { agentId?: string | undefined; tenant?: string | undefined },
  session: { sessionId: string; agentId: string; tenant?: string | undefined },
): OwnerMismatch | undefined {
  if (message.tenant !== undefined && message.tenant !== tenantOf(session)) {
    return { type: "TenantMismatch", message: `no session "${session.sessionId}"` };
  }
  if (message.agentId !== undefined && message.agentId !== session.agentId) {
    return {
      type: "AgentMismatch",
      message: `session "${session.sessionId}" belongs to agent "${session.agentId}", not "${message.agentId}"`,
    };
  }
  return undefined;
}
