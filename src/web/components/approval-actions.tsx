import { useState } from "react";
import { useApprovalAnswer } from "./approval-context.ts";

/**
 * Approve and Deny for a tool call waiting for a person, with an optional reason (kept with the
 * decision; a denial's reason is told to the model). Once clicked, the buttons stay disabled:
 * the answer is on its way, and the session records who decided first.
 */
export function ApprovalActions({ approvalId, tool }: { approvalId: string; tool: string }) {
  const answer = useApprovalAnswer();
  const [reason, setReason] = useState("");
  const [sent, setSent] = useState(false);
  if (answer === undefined) return null;
  const decide = (approved: boolean) => {
    setSent(true);
    const text = reason.trim();
    answer({ id: approvalId, approved, ...(text === "" ? {} : { reason: text }) });
  };
  return (
    <div className="approval-actions" role="group" aria-label={`approve or deny ${tool}`}>
      <input
        type="text"
        aria-label="reason"
        placeholder="reason (optional)"
        value={reason}
        maxLength={1000}
        disabled={sent}
        onChange={(event) => {
          setReason(event.target.value);
        }}
      />
      <button
        type="button"
        disabled={sent}
        onClick={() => {
          decide(true);
        }}
      >
        Approve
      </button>
      <button
        type="button"
        className="deny"
        disabled={sent}
        onClick={() => {
          decide(false);
        }}
      >
        Deny
      </button>
    </div>
  );
}
