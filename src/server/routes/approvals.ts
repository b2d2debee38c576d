import type { Context } from "hono";
import { z } from "zod";
import {
  approvalIdSchema,
  approverSchema,
  DEFAULT_TENANT,
  type ApprovalRecord,
  type DecideApprovalResult,
} from "../../session/index.ts";
import type { ApiContext, ApiEnv } from "../api-context.ts";
import { ApiError, toApiError } from "../api-error.ts";
import { readJsonBody } from "../json-body.ts";
import { invalidBody } from "../validation.ts";
import { sessionIdParam } from "./sessions.ts";

/** The header that names the person answering (the tenant is what the token proves). */
export const APPROVER_HEADER = "x-agentdock-approver";

const decisionBodySchema = z.strictObject({
  decision: z.enum(["approve", "deny"], { error: 'decision is "approve" or "deny"' }),
  reason: z.string().max(1_000, "keep the reason under 1,000 characters").optional(),
});

/**
 * Who answers, for the record: the `X-Agentdock-Approver` header's name, qualified by the
 * caller's tenant when the API has tokens (the tenant is the part a token proves); without
 * either, "anonymous (HTTP)".
 */
export function approverOf(c: Context<ApiEnv>): string {
  const header = c.req.header(APPROVER_HEADER);
  let name: string | undefined;
  if (header !== undefined) {
    const parsed = approverSchema.safeParse(header);
    if (!parsed.success) {
      throw new ApiError(
        400,
        "invalid_approver",
        `${APPROVER_HEADER}: ${parsed.error.issues[0]?.message ?? "invalid"}`,
      );
    }
    name = parsed.data;
  }
  const tenant = c.var.tenant;
  if (tenant === DEFAULT_TENANT) return name ?? "anonymous (HTTP)";
  return name === undefined ? `tenant ${tenant}` : `${name} (tenant ${tenant})`;
}

/** `GET /api/sessions/:id/approvals`: the tool calls waiting for a person, and the latest decided. */
export async function listApprovalsRoute(api: ApiContext, c: Context<ApiEnv>): Promise<Response> {
  const sessionId = await sessionIdParam(api, c);
  try {
    return c.json(await api.sessions.approvals(sessionId));
  } catch (error) {
    throw toApiError(error, sessionId);
  }
}

/**
 * `POST /api/sessions/:id/approvals/:approvalId` with `{decision: "approve"|"deny", reason?}`:
 * records the answer (who: see `approverOf`) and returns it; the turn goes on in the session.
 * 404 for an approval the session does not have, 409 when it was already decided (two racing
 * answers: the first wins), 400 for a malformed body.
 */
export async function decideApprovalRoute(api: ApiContext, c: Context<ApiEnv>): Promise<Response> {
  const parsed = decisionBodySchema.safeParse(await readJsonBody(c));
  if (!parsed.success) throw invalidBody(parsed.error);
  const sessionId = await sessionIdParam(api, c);
  const rawId = c.req.param("approvalId") ?? "";
  const approvalId = approvalIdSchema.safeParse(rawId);
  if (!approvalId.success) {
    throw new ApiError(404, "unknown_approval", `this session has no approval ${rawId}`);
  }
  const by = approverOf(c);
  try {
    const result: DecideApprovalResult = await api.sessions.decideApproval(sessionId, {
      approvalId: approvalId.data,
      decision: parsed.data.decision,
      by,
      ...(parsed.data.reason === undefined ? {} : { reason: parsed.data.reason }),
    });
    return c.json(result);
  } catch (error) {
    throw toApiError(error, sessionId);
  }
}

/** An answer `useChat`'s `addToolApprovalResponse` put on a tool part of the assistant message. */
export interface ChatApprovalResponse {
  approvalId: string;
  approved: boolean;
  reason?: string;
}

const respondedPartSchema = z.looseObject({
  state: z.literal("approval-responded"),
  approval: z.looseObject({
    id: approvalIdSchema,
    approved: z.boolean(),
    reason: z.string().max(1_000).optional(),
  }),
});

/** The approval answers on a message's parts (tool parts in state `approval-responded`). */
export function chatApprovalResponses(
  parts: readonly Record<string, unknown>[],
): ChatApprovalResponse[] {
  return parts.flatMap((part): ChatApprovalResponse[] => {
    const parsed = respondedPartSchema.safeParse(part);
    if (!parsed.success) return [];
    const { id, approved, reason } = parsed.data.approval;
    return [{ approvalId: id, approved, ...(reason === undefined ? {} : { reason }) }];
  });
}

/**
 * Delivers the chat's approval answers to the session, and returns the approval the turn
 * continues after (the last one answered). An answer the session already has, with the same
 * outcome, is taken as a repeat (a client retrying); one that contradicts an earlier decision
 * answers 409.
 */
export async function deliverChatApprovals(
  api: ApiContext,
  c: Context<ApiEnv>,
  sessionId: string,
  responses: readonly ChatApprovalResponse[],
): Promise<ApprovalRecord> {
  const by = approverOf(c);
  let last: ApprovalRecord | undefined;
  try {
    const { pending, decided } = await api.sessions.approvals(sessionId);
    for (const response of responses) {
      const known = [...pending, ...decided].find(
        (record) => record.approvalId === response.approvalId,
      );
      if (
        known?.decision !== undefined &&
        (known.decision.outcome === "approved") === response.approved
      ) {
        last = known;
        continue;
      }
      await api.sessions.decideApproval(sessionId, {
        approvalId: response.approvalId,
        decision: response.approved ? "approve" : "deny",
        by,
        ...(response.reason === undefined ? {} : { reason: response.reason }),
      });
      last = known;
    }
  } catch (error) {
    throw toApiError(error, sessionId);
  }
  if (last === undefined) {
    throw new ApiError(
      404,
      "unknown_approval",
      `session "${sessionId}" has no approval ${responses.map((r) => r.approvalId).join(", ")}`,
    );
  }
  return last;
}
