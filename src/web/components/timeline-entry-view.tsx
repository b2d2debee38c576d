import type { TimelineEntry } from "../api/api-types.ts";
import { duration, shown } from "../format.ts";
import { approvalEntryText } from "./approval-entry.ts";
import { JsonBlock } from "./json-block.tsx";
import { OrchestrationLine } from "./orchestration-line.tsx";

function ModelCall({
  entry,
  turnRunning,
}: {
  entry: Extract<TimelineEntry, { kind: "model_call" }>;
  turnRunning: boolean;
}) {
  return (
    <li className="entry model-call" data-kind="model_call">
      <div className="entry-head">
        <span>
          model call {entry.step}
          {entry.activeStep !== null && ` · ${entry.activeStep}`}
        </span>
        <span className="meta">
          {entry.usage === undefined
            ? turnRunning
              ? "running…"
              : "stopped (no answer)"
            : `${entry.usage.inputTokens} in · ${entry.usage.outputTokens} out · ${entry.usage.totalTokens} tokens`}
        </span>
      </div>
      <div className="tools-offered">
        offered: {entry.offeredTools.length === 0 ? "no tools" : entry.offeredTools.join(", ")}
      </div>
      {entry.withheldTools.length > 0 && (
        <details className="withheld">
          <summary>withheld: {entry.withheldTools.map((tool) => tool.tool).join(", ")}</summary>
          <ul>
            {entry.withheldTools.map((tool) => (
              <li key={tool.tool}>
                withheld <b>{tool.tool}</b>: {tool.reason}
              </li>
            ))}
          </ul>
        </details>
      )}
    </li>
  );
}

function ToolCall({ entry }: { entry: Extract<TimelineEntry, { kind: "tool_call" }> }) {
  return (
    <li
      className={`entry tool-call status-${entry.status}`}
      data-kind="tool_call"
      data-tool={entry.toolName}
    >
      <div className="entry-head">
        <span>
          ⚙ {entry.toolName} <span className="badge">{entry.status}</span>
        </span>
        <span className="meta">
          {entry.durationMs !== undefined && duration(entry.durationMs)}
          {entry.attempts !== undefined && entry.attempts > 1 && ` · ${entry.attempts} attempts`}
        </span>
      </div>
      {entry.detail !== undefined && <div className="tool-error">{entry.detail}</div>}
      {entry.input !== undefined && <JsonBlock label="input" value={entry.input} />}
      {entry.output !== undefined && <JsonBlock label="output" value={entry.output} />}
    </li>
  );
}

/**
 * One thing that happened in a turn. A model call with no answer is running while its turn
 * runs, and was stopped once the turn ended without it (a cancelled turn).
 */
export function TimelineEntryView({
  entry,
  turnRunning = true,
}: {
  entry: TimelineEntry;
  turnRunning?: boolean;
}) {
  switch (entry.kind) {
    case "orchestration":
      return (
        <li className="entry" data-kind="orchestration">
          <OrchestrationLine event={entry.event} />
        </li>
      );
    case "model_call":
      return <ModelCall entry={entry} turnRunning={turnRunning} />;
    case "tool_call":
      return <ToolCall entry={entry} />;
    case "event": {
      const approval = approvalEntryText(entry.type, entry.event);
      if (approval !== undefined) {
        return (
          <li className="entry approval" data-kind={entry.type}>
            {approval}
          </li>
        );
      }
      return (
        <li className="entry generic" data-kind={entry.type}>
          <span className="label">{entry.type}</span> <code>{shown(stripType(entry.event))}</code>
        </li>
      );
    }
  }
}

function stripType(event: Record<string, unknown>): Record<string, unknown> {
  const { type: _type, ...rest } = event;
  return rest;
}
