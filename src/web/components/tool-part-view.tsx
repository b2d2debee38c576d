import { getToolName, type DynamicToolUIPart, type ToolUIPart } from "ai";
import { ApprovalActions } from "./approval-actions.tsx";
import { JsonBlock } from "./json-block.tsx";
import { useToolCall } from "./tool-calls-context.ts";

const stateLabels: Record<string, string> = {
  "input-streaming": "preparing input",
  "input-available": "running",
  "approval-requested": "waiting for approval",
  "approval-responded": "approval answered",
  "output-available": "done",
  "output-error": "error",
  "output-denied": "denied",
};

/**
 * A tool call in the chat: name, state, input, then output or error. An approval request (the AI
 * SDK's `approval-requested` state) is shown with Approve and Deny, which answer it through
 * `useChat`'s `addToolApprovalResponse`.
 */
export function ToolPartView({ part }: { part: ToolUIPart | DynamicToolUIPart }) {
  const name = getToolName(part);
  const failed = part.state === "output-error" || part.state === "output-denied";
  const recorded = useToolCall(part.toolCallId);
  const refused = part.state === "output-error" && recorded?.status === "refused";
  return (
    <div
      className={`tool-part state-${part.state}${failed ? " failed" : ""}`}
      data-tool={name}
      data-state={part.state}
    >
      <div className="tool-head">
        <span className="tool-name">⚙ {name}</span>
        <span className="badge">
          {refused ? "refused" : (stateLabels[part.state] ?? part.state)}
        </span>
      </div>
      {part.input !== undefined && <JsonBlock label="input" value={part.input} />}
      {part.state === "output-available" && <JsonBlock label="output" value={part.output} />}
      {part.state === "output-error" && (
        <div className="tool-error">
          {refused && recorded.detail !== undefined
            ? `refused: ${recorded.detail}`
            : part.errorText}
        </div>
      )}
      {(part.state === "approval-requested" ||
        part.state === "approval-responded" ||
        part.state === "output-denied") && (
        <div className="approval">
          approval {part.approval.id}
          {part.approval.requestReason !== undefined && `: ${part.approval.requestReason}`}
          {part.state === "approval-requested" && " — waiting for a person to approve or deny"}
          {"approved" in part.approval &&
            part.approval.approved !== undefined &&
            (part.approval.approved ? " — approved" : " — denied")}
          {"reason" in part.approval &&
            part.approval.reason !== undefined &&
            ` (${part.approval.reason})`}
        </div>
      )}
      {part.state === "approval-requested" && (
        <ApprovalActions approvalId={part.approval.id} tool={name} />
      )}
    </div>
  );
}
