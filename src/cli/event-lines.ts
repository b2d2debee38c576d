import type { SessionEvent } from "../session/index.ts";

/** One line per session event worth showing a person live; undefined for the rest. */
export function describeEvent(event: SessionEvent): string | undefined {
  switch (event.type) {
    case "orchestration": {
      const inner = event.event;
      switch (inner.type) {
        case "step_entered": {
          const why =
            inner.reason === "conditions"
              ? `because ${inner.conditions.join(" and ")}`
              : inner.reason === "on_complete"
                ? `after ${inner.from ?? "the previous step"} completed`
                : inner.reason === "released"
                  ? `after ${inner.from ?? "the previous step"} was released`
                  : inner.reason === "default"
                    ? "(default step)"
                    : "(initial step)";
          return `  → step ${inner.step} ${why}`;
        }
        case "step_skipped":
          return `  ⊘ step ${inner.step} skipped: ${inner.tool} is ${inner.reason}`;
        case "sequence_released": {
          const why =
            inner.cause === "failed"
              ? `${inner.tool} failed ${inner.failures} times in a row (${inner.error})`
              : `${inner.tool} is ${inner.error}`;
          return `  ⤺ sequence of ${inner.step} released${inner.to === undefined ? "" : ` to ${inner.to}`}: ${why}`;
        }
        case "tool_unavailable":
          return `  ⊘ tool ${inner.tool} unavailable: ${inner.reason}`;
        case "tool_available":
          return `  ✓ tool ${inner.tool} available again`;
        case "sequence_completed":
          return `  ✓ sequence of ${inner.step} complete`;
        case "sequence_reset":
          return `  ↺ sequence of ${inner.step} reset (${inner.trigger})`;
        case "sequence_restarted":
          return `  ↺ sequence of ${inner.step} restarted`;
        case "tool_refused":
          return `  ✗ refused ${inner.tool}: ${inner.reason}`;
        default:
          return undefined;
      }
    }
    case "tool_started":
      return `  ⚙ tool ${event.toolName}…`;
    case "tool_finished":
      // A refusal is shown by its orchestration event, which says why.
      return event.status === "ok" || event.status === "refused"
        ? undefined
        : `  ✗ tool ${event.toolName} ${event.status}: ${event.detail ?? ""}`;
    case "approval_requested": {
      const input = JSON.stringify(event.input);
      const shown = input.length > 160 ? `${input.slice(0, 159)}…` : input;
      const limit =
        event.expiresAt === undefined ? "" : `, denied at ${event.expiresAt} if nobody answers`;
      return `  ⏸ ${event.tool} waits for approval (${event.approvalId}${limit}): input ${shown}\n    answer with: agentdock-temporal approve|deny <session> ${event.approvalId} [--reason TEXT]`;
    }
    case "approval_decided": {
      const reason = event.reason === undefined ? "" : `: ${event.reason}`;
      return event.outcome === "approved"
        ? `  ✓ ${event.tool} approved by ${event.by}${reason}`
        : `  ✗ ${event.tool} ${event.outcome.replace("_", " ")} (${event.by})${reason}`;
    }
    case "message_rejected":
      return `  ✗ message rejected: ${event.reason}`;
    case "message_steered":
      return `  ↪ message ${event.messageId} joined turn ${event.turn}: ${event.text}`;
    case "continued_as_new":
      return `  ⤷ continued as new (run ${event.run})`;
    case "session_ended":
      return `  ■ session ended: ${event.reason}`;
    case "session_forked":
      return `  ⑂ forked from ${event.parentSession} after message ${event.forkedAt}`;
    case "template_upgraded":
      return [
        `  ⬆ template ${event.from ?? "(unversioned)"} → ${event.to}`,
        ...event.notes.map((note) => `    ${note}`),
      ].join("\n");
    default:
      return undefined;
  }
}
