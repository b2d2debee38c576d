import type { Client, WorkflowExecutionInfo } from "@temporalio/client";
import { optionalTsToMs } from "@temporalio/common/lib/time.js";
import {
  activeStepKey,
  agentIdKey,
  parentSessionKey,
  sessionIdFromWorkflowId,
  sessionStatusKey,
  templateVersionKey,
  tenantIdKey,
  turnCountKey,
  DEFAULT_TENANT,
  SESSION_WORKFLOW_TYPE,
} from "../session/index.ts";

/** Execution statuses as `--status` spells them, with the visibility query's names. */
export const executionStatuses = {
  running: "Running",
  completed: "Completed",
  failed: "Failed",
  canceled: "Canceled",
  terminated: "Terminated",
  "continued-as-new": "ContinuedAsNew",
  "timed-out": "TimedOut",
} as const;
export type ExecutionStatusOption = keyof typeof executionStatuses;

export interface SessionListing {
  sessionId: string;
  workflowId: string;
  runId: string;
  agentId: string | null;
  tenant: string;
  activeStep: string | null;
  /** The workflow execution: running, completed, failed, terminated… */
  status: string;
  /** The session's own status: idle, running (a turn in progress), failed (its last turn) or ended. */
  sessionStatus: string | null;
  turns: number | null;
  taskQueue: string;
  startTime: string;
  closeTime: string | null;
  /** When the last event of the run happened (close time once closed). */
  lastActivity: string;
  /** The template version the session runs (null: started before versions). */
  templateVersion: string | null;
  /** The session it was forked from (null: not a fork). */
  parentSession: string | null;
}

export interface ListFilter {
  status?: ExecutionStatusOption;
  agent?: string;
  /** Only this tenant's sessions; the default tenant also owns sessions that have none. */
  tenant?: string;
  limit: number;
}

/** A visibility query: session workflows; continued-as-new runs hidden unless asked for. */
export function listQuery(filter: ListFilter): string {
  const clauses = [`WorkflowType="${SESSION_WORKFLOW_TYPE}"`];
  clauses.push(
    filter.status === undefined
      ? `ExecutionStatus!="ContinuedAsNew"`
      : `ExecutionStatus="${executionStatuses[filter.status]}"`,
  );
  // Agent ids are validated (lower-case letters, digits, '-'): nothing to escape.
  if (filter.agent !== undefined) clauses.push(`AgentId="${filter.agent}"`);
  // Tenant ids are validated the same way (tenantIdSchema).
  if (filter.tenant !== undefined) {
    clauses.push(
      filter.tenant === DEFAULT_TENANT
        ? `(TenantId="${DEFAULT_TENANT}" OR TenantId IS NULL)`
        : `TenantId="${filter.tenant}"`,
    );
  }
  return clauses.join(" AND ");
}

/** Visibility does not keep a running workflow's last update: its last history event does. */
async function lastEventTime(client: Client, info: WorkflowExecutionInfo): Promise<Date> {
  if (info.closeTime !== undefined) return info.closeTime;
  const response = await client.workflowService.getWorkflowExecutionHistoryReverse({
    namespace: client.options.namespace,
    execution: { workflowId: info.workflowId, runId: info.runId },
    maximumPageSize: 1,
  });
  const ms = optionalTsToMs(response.history?.events?.[0]?.eventTime);
  return ms === undefined ? info.startTime : new Date(ms);
}

/** Sessions from Temporal visibility (search attributes), newest first. */
export async function listSessions(client: Client, filter: ListFilter): Promise<SessionListing[]> {
  const infos: WorkflowExecutionInfo[] = [];
  for await (const info of client.workflow.list({
    query: listQuery(filter),
    pageSize: Math.min(filter.limit, 1000),
  })) {
    infos.push(info);
    if (infos.length >= filter.limit) break;
  }
  return Promise.all(
    infos.map(async (info) => {
      const attributes = info.typedSearchAttributes;
      return {
        sessionId: sessionIdFromWorkflowId(info.workflowId),
        workflowId: info.workflowId,
        runId: info.runId,
        agentId: attributes.get(agentIdKey) ?? null,
        tenant: attributes.get(tenantIdKey) ?? DEFAULT_TENANT,
        activeStep: attributes.get(activeStepKey) ?? null,
        status: info.status.name.toLowerCase().replace(/_/g, "-"),
        sessionStatus: attributes.get(sessionStatusKey) ?? null,
        turns: attributes.get(turnCountKey) ?? null,
        taskQueue: info.taskQueue,
        startTime: info.startTime.toISOString(),
        closeTime: info.closeTime?.toISOString() ?? null,
        lastActivity: (await lastEventTime(client, info)).toISOString(),
        templateVersion: attributes.get(templateVersionKey) ?? null,
        parentSession: attributes.get(parentSessionKey) ?? null,
      };
    }),
  );
}
