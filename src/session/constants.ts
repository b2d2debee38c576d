/** Names and limits shared by the workflow, the worker and the clients. */
export const SESSION_WORKFLOW_TYPE = "agentSession";
export const DEFAULT_TASK_QUEUE = "agentdock";
export const SESSION_ID_PREFIX = "session-";

/** The longest user message accepted (characters); longer ones are rejected before history. */
export const MAX_MESSAGE_CHARS = 32_000;
/** Events the session keeps for live viewers (older ones are dropped; offsets keep counting). */
export const EVENT_LOG_LIMIT = 1_000;
/** Message ids remembered for de-duplication, and turn results kept for repeated updates. */
export const REMEMBERED_MESSAGE_IDS = 5_000;
export const REMEMBERED_RESULTS = 50;
/** Continue-as-new past this many history events even if the server has not suggested it yet. */
export const DEFAULT_CONTINUE_AS_NEW_AFTER_EVENTS = 8_000;

export const MODEL_ACTIVITY_TIMEOUT = "5 minutes";
export const MODEL_ACTIVITY_MAX_ATTEMPTS = 5;
/** Workers heartbeat every running activity (see src/worker/liveness-heartbeat.ts). */
export const MODEL_ACTIVITY_HEARTBEAT_TIMEOUT = "15 seconds";
export const LIVENESS_HEARTBEAT_INTERVAL_MS = 3_000;
export const TOOL_ACTIVITY_TIMEOUT = "5 minutes";
export const TOOL_ACTIVITY_MAX_ATTEMPTS = 5;
/** A pure tool runs in milliseconds; the bound only catches a stuck worker. */
export const PURE_TOOL_TIMEOUT = "30 seconds";

export function workflowIdFor(sessionId: string): string {
  return `${SESSION_ID_PREFIX}${sessionId}`;
}

export function sessionIdFromWorkflowId(workflowId: string): string {
  return workflowId.startsWith(SESSION_ID_PREFIX)
    ? workflowId.slice(SESSION_ID_PREFIX.length)
    : workflowId;
}
