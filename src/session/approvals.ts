import { z } from "zod";
import { sharedAcrossSessions } from "../orchestration/shared-across-sessions.ts";

/** Approvals kept once decided, so a late second answer is told who decided (409), not "unknown". */
export const REMEMBERED_APPROVALS = 200;

/** The error type the workflow gives an answer to an approval already decided (HTTP 409). */
export const APPROVAL_DECIDED_ERROR = "ApprovalAlreadyDecided";
/** The error type for an approval id the session does not have (HTTP 404). */
export const APPROVAL_UNKNOWN_ERROR = "UnknownApproval";

export const approvalIdSchema = sharedAcrossSessions("src/session/approvals:approvalIdSchema", () =>
  z
    .string({ error: "an approval id is a string" })
    .regex(
      /^[A-Za-z0-9._:-]{1,200}$/,
      "an approval id is 1 to 200 letters, digits, '.', '_', ':' or '-' (as `approvals` lists it)",
    ),
);

/** Who answers: a person or system name as the caller gives it (tenant, `--as`, a header). */
export const approverSchema = sharedAcrossSessions("src/session/approvals:approverSchema", () =>
  z
    .string({ error: "say who decides (by)" })
    .trim()
    .min(1, "say who decides (by)")
    .max(200, "at most 200 characters"),
);

/** The `decideApproval` update's input. Validated in the workflow before anything is recorded. */
export const decideApprovalRequestSchema = sharedAcrossSessions(
  "src/session/approvals:decideApprovalRequestSchema",
  () =>
    z.strictObject({
      approvalId: approvalIdSchema,
      decision: z.enum(["approve", "deny"], { error: 'decision is "approve" or "deny"' }),
      by: approverSchema,
      reason: z.string().max(1_000, "keep the reason under 1,000 characters").optional(),
    }),
);
export type DecideApprovalRequest = z.infer<typeof decideApprovalRequestSchema>;

/** How an approval ended: a person's answer, the rule's timeout, or the turn/session stopping. */
export type ApprovalOutcome = "approved" | "denied" | "timed_out" | "cancelled";

export interface ApprovalDecision {
  outcome: ApprovalOutcome;
  /** Who decided: the approver, or "timeout" / "cancel" / "session end" for the workflow itself. */
  by: string;
  /** Workflow time of the decision, ISO 8601. */
  at: string;
  reason?: string;
}

/** A tool call that waits (or waited) for a person: what the `approvals` query lists. */
export interface ApprovalRecord {
  /** Deterministic: the turn and the model's tool call id (`t3-call-1`). */
  approvalId: string;
  toolCallId: string;
  tool: string;
  input: unknown;
  /** The step active when the call was made (null: none). */
  step: string | null;
  /** The rule that asked for approval, in words, and where it is in the template. */
  rule: string;
  rulePath: string;
  turn: number;
  messageId: string;
  /** Workflow time of the request, ISO 8601. */
  requestedAt: string;
  /** When the call is denied if nobody answers (absent: no limit). */
  expiresAt?: string;
  decision?: ApprovalDecision;
}

/** The `approvals` query's answer. */
export interface ApprovalsView {
  /** Waiting for a person (at most one: a turn's tool calls run one at a time). */
  pending: ApprovalRecord[];
  /** The latest decided ones, newest last (bounded). */
  decided: ApprovalRecord[];
}

/** What the `decideApproval` update answers. */
export interface DecideApprovalResult {
  approvalId: string;
  tool: string;
  decision: ApprovalDecision;
}

/** The approval id of a tool call: readable, deterministic, unique across the session's turns. */
export function approvalIdFor(turn: number, toolCallId: string): string {
  return `t${turn}-${toolCallId.replace(/[^A-Za-z0-9._:-]/g, "_")}`.slice(0, 200);
}
