import type { OrchestrationEvent } from "../api/api-types.ts";
import { shown } from "../format.ts";

const text = (value: unknown): string => (typeof value === "string" ? value : shown(value));
const list = (value: unknown): string =>
  Array.isArray(value) ? value.map(text).join(" or ") : text(value);

/** An orchestration change in words; kinds this console does not know are shown as they are. */
export function describeOrchestration(event: OrchestrationEvent): string {
  switch (event.type) {
    case "step_entered": {
      const conditions = Array.isArray(event["conditions"]) ? event["conditions"].map(String) : [];
      const why =
        event["reason"] === "conditions"
          ? `because ${conditions.join(" and ")}`
          : event["reason"] === "on_complete"
            ? `after ${text(event["from"] ?? "the previous step")} completed`
            : event["reason"] === "default"
              ? "(default step)"
              : event["reason"] === "released"
                ? `after ${text(event["from"] ?? "the previous step")} gave up control`
                : "(initial step)";
      return `→ step ${text(event["step"])} ${why}`;
    }
    case "sequence_advanced": {
      const next = list(event["next"]);
      return `sequence of ${text(event["step"])}: ${text(event["tool"])} done (${text(event["position"])}/${text(event["length"])})${next === "" ? "" : `, next ${next}`}`;
    }
    case "sequence_completed":
      return `✓ sequence of ${text(event["step"])} complete`;
    case "sequence_reset":
      return `↺ sequence of ${text(event["step"])} reset at position ${text(event["fromIndex"])} (${text(event["trigger"])})`;
    case "sequence_restarted":
      return `↺ sequence of ${text(event["step"])} restarted`;
    case "tool_recorded":
      return `tool ${text(event["tool"])} recorded (${text(event["toolCount"])} so far)`;
    case "tool_outside_sequence":
      return `${text(event["tool"])} ran outside the sequence of ${text(event["step"])} (expected ${list(event["expected"])})`;
    case "tool_unavailable":
      return `⚠ ${text(event["tool"])} cannot run on this worker: ${text(event["reason"])}`;
    case "tool_available":
      return `${text(event["tool"])} can run again`;
    case "step_skipped":
      return `step ${text(event["step"])} not entered: it needs ${text(event["tool"])} (${text(event["reason"])})`;
    case "sequence_released":
      return `↷ sequence of ${text(event["step"])} released: ${text(event["tool"])} ${event["cause"] === "failed" ? `failed ${text(event["failures"])} times (${text(event["error"])})` : `is unavailable (${text(event["error"])})`}${event["to"] === undefined ? "" : `; ${text(event["to"])} takes over`}`;
    case "tool_refused":
      return `✗ refused ${text(event["tool"])}: ${text(event["reason"])}`;
    default: {
      const { type, ...rest } = event;
      return `${type} ${shown(rest)}`;
    }
  }
}

export function OrchestrationLine({ event }: { event: OrchestrationEvent }) {
  const refused = event.type === "tool_refused";
  return (
    <div className={`orchestration${refused ? " refused" : ""}`} data-kind={event.type}>
      {describeOrchestration(event)}
    </div>
  );
}
