import {
  ApplicationFailure,
  condition,
  isCancellation,
  patched,
  setHandler,
} from "@temporalio/workflow";
import {
  APPROVAL_DECIDED_ERROR,
  APPROVAL_UNKNOWN_ERROR,
  REMEMBERED_APPROVALS,
  approvalIdFor,
  decideApprovalRequestSchema,
  type ApprovalDecision,
  type ApprovalRecord,
  type DecideApprovalRequest,
} from "../src/session/approvals.ts";
import { approvalsQuery, decideApprovalUpdate } from "../src/session/messages.ts";
import { formatIssues } from "../src/session/session-types.ts";
import type { Session } from "./session.ts";
import type { SessionState } from "./session-state.ts";
import type { TurnContext } from "./turn-context.ts";

/**
 * Sessions recorded before approvals existed never asked for one (their templates could not
 * say `approve`); the marker makes the new commands (timer, search attributes) explicit.
 */
export const APPROVAL_PATCH = "tool-approval";

/** The workflow's clock: the time of the workflow task, the same on every replay. */
function now(): string {
  // eslint-disable-next-line no-restricted-syntax
  return new Date().toISOString();
}

function pendingOf(state: SessionState): ApprovalRecord[] {
  return state.approvals.filter((record) => record.decision === undefined);
}

/** The approval waiting for a person, if any (a turn's tool calls run one at a time). */
export function pendingApproval(state: SessionState): ApprovalRecord | undefined {
  return state.approvals.find((record) => record.decision === undefined);
}

/** Decided approvals worth carrying into the next run (bounded). */
export function decidedApprovals(state: SessionState): ApprovalRecord[] {
  return state.approvals.filter((record) => record.decision !== undefined);
}

/** Records the decision once, emits it, and forgets the oldest decided approvals past the bound. */
function settle(session: Session, record: ApprovalRecord, decision: ApprovalDecision): void {
  if (record.decision !== undefined) return;
  record.decision = decision;
  const { state } = session;
  if (state.status === "awaiting_approval" && pendingApproval(state) === undefined) {
    state.status = "running";
  }
  session.emit({
    type: "approval_decided",
    approvalId: record.approvalId,
    toolCallId: record.toolCallId,
    tool: record.tool,
    ...decision,
  });
  const decided = decidedApprovals(state);
  if (decided.length > REMEMBERED_APPROVALS) {
    const drop = new Set(decided.slice(0, decided.length - REMEMBERED_APPROVALS));
    state.approvals = state.approvals.filter((entry) => !drop.has(entry));
  }
}

function describeDecision(decision: ApprovalDecision): string {
  const by = decision.by;
  const reason = decision.reason === undefined ? "" : ` (${decision.reason})`;
  switch (decision.outcome) {
    case "approved":
      return `approved by ${by}${reason}`;
    case "denied":
      return `denied by ${by}${reason}`;
    case "timed_out":
      return `denied: nobody approved it in time${reason}`;
    case "cancelled":
      return `cancelled (${decision.reason ?? "the turn was stopped"})`;
  }
}

function findRecord(state: SessionState, approvalId: string): ApprovalRecord | undefined {
  return state.approvals.find((record) => record.approvalId === approvalId);
}

/** Why an answer to this approval cannot be taken, as the failure the client maps (404/409). */
function refusalOf(
  state: SessionState,
  request: DecideApprovalRequest,
): ApplicationFailure | undefined {
  const record = findRecord(state, request.approvalId);
  if (record === undefined) {
    const pending = pendingOf(state).map((entry) => entry.approvalId);
    return ApplicationFailure.nonRetryable(
      `this session has no approval ${request.approvalId} (${pending.length === 0 ? "none is pending" : `pending: ${pending.join(", ")}`})`,
      APPROVAL_UNKNOWN_ERROR,
    );
  }
  if (record.decision !== undefined) {
    return ApplicationFailure.nonRetryable(
      `approval ${record.approvalId} (tool ${record.tool}) was already ${describeDecision(record.decision)} at ${record.decision.at}`,
      APPROVAL_DECIDED_ERROR,
    );
  }
  return undefined;
}

/**
 * The `decideApproval` update and the `approvals` query. The validator refuses malformed input
 * and unknown ids before anything reaches history; the first answer to an approval wins and is
 * recorded at once (in the same workflow task), so a second one racing it fails with
 * `ApprovalAlreadyDecided`.
 */
export function installToolApproval(session: Session): void {
  const { state } = session;
  setHandler(approvalsQuery, () => ({
    pending: pendingOf(state),
    decided: decidedApprovals(state),
  }));
  setHandler(
    decideApprovalUpdate,
    (request) => {
      const refusal = refusalOf(state, request);
      if (refusal !== undefined) throw refusal;
      const record = findRecord(state, request.approvalId);
      if (record === undefined)
        throw ApplicationFailure.nonRetryable("unreachable", APPROVAL_UNKNOWN_ERROR);
      const decision: ApprovalDecision = {
        outcome: request.decision === "approve" ? "approved" : "denied",
        by: request.by,
        at: now(),
        ...(request.reason === undefined || request.reason === ""
          ? {}
          : { reason: request.reason }),
      };
      settle(session, record, decision);
      return { approvalId: record.approvalId, tool: record.tool, decision };
    },
    {
      validator: (request) => {
        const parsed = decideApprovalRequestSchema.safeParse(request);
        if (!parsed.success) throw new Error(formatIssues(parsed.error));
        const refusal = refusalOf(state, parsed.data);
        if (refusal !== undefined) throw refusal;
      },
    },
  );
}

/**
 * Before an allowed tool call runs: when an `approve` rule covers it, records the request, sets
 * the session to `awaiting_approval` and waits (minutes or weeks: a wait costs no history
 * events) for a person's answer, the rule's timeout, the turn being stopped or the session
 * ending. Returns undefined when the call needs no approval, else the decision; only an
 * `approved` one lets the tool run.
 */
export async function awaitApproval(
  context: TurnContext,
  tool: string,
  input: unknown,
  toolCallId: string,
): Promise<ApprovalDecision | undefined> {
  const { session } = context;
  const { state } = session;
  const need = session.orchestrator.approvalFor(state.orchestration, tool, input);
  if (need === undefined || !patched(APPROVAL_PATCH)) return undefined;
  const turn = state.activeTurn;
  const requestedAt = now();
  const record: ApprovalRecord = {
    approvalId: approvalIdFor(state.orchestration.turn, toolCallId),
    toolCallId,
    tool,
    input,
    step: state.orchestration.activeStep ?? null,
    rule: need.rule,
    rulePath: need.path,
    turn: state.orchestration.turn,
    messageId: turn?.messageId ?? "",
    requestedAt,
    ...(need.timeoutMs === undefined
      ? {}
      : { expiresAt: new Date(Date.parse(requestedAt) + need.timeoutMs).toISOString() }),
  };
  state.approvals.push(record);
  state.status = "awaiting_approval";
  session.emit({
    type: "approval_requested",
    approvalId: record.approvalId,
    toolCallId,
    tool,
    input,
    step: record.step,
    rule: record.rule,
    requestedAt,
    ...(record.expiresAt === undefined ? {} : { expiresAt: record.expiresAt }),
  });
  const answered = (): boolean => record.decision !== undefined || state.ending;
  try {
    if (need.timeoutMs === undefined) await condition(answered);
    else await condition(answered, need.timeoutMs);
  } catch (error) {
    if (isCancellation(error)) {
      const reason = turn?.cancelReason ?? "the turn was cancelled";
      settle(session, record, { outcome: "cancelled", by: "cancel", at: now(), reason });
    }
    throw error;
  }
  if (record.decision === undefined) {
    settle(
      session,
      record,
      state.ending
        ? { outcome: "cancelled", by: "session end", at: now(), reason: "the session is ending" }
        : {
            outcome: "timed_out",
            by: "timeout",
            at: now(),
            reason: `no answer within ${need.timeout ?? "the timeout"}`,
          },
    );
  }
  return record.decision;
}

/** What the model is told when a call was not approved: a refusal it can explain to the user. */
export function approvalRefusal(tool: string, decision: ApprovalDecision): string {
  return `refused: the call to ${tool} was ${describeDecision(decision)}. Do not call ${tool} again for this request; tell the user it was not approved.`;
}
