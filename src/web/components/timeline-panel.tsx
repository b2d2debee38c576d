import { useLayoutEffect, useRef } from "react";
import type { SessionTimeline, TimelineTurn } from "../api/api-types.ts";
import { shown } from "../format.ts";
import { TimelineEntryView } from "./timeline-entry-view.tsx";

function TurnView({ turn }: { turn: TimelineTurn }) {
  return (
    <li className={`turn turn-${turn.status}`} data-turn={turn.turn}>
      <div className="turn-head">
        <b>Turn {turn.turn}</b> <span className="badge">{turn.status}</span>
        <div className="turn-text">“{turn.text}”</div>
      </div>
      <ol className="entries">
        {turn.entries.map((entry) => (
          <TimelineEntryView
            key={`${entry.kind}-${entry.offset}`}
            entry={entry}
            turnRunning={turn.status === "running"}
          />
        ))}
      </ol>
      {turn.error !== undefined && <div className="tool-error">turn failed: {turn.error}</div>}
    </li>
  );
}

/**
 * Beside the chat: each turn as it happens — steps entered and why, sequence progress, every
 * model call (tools offered and withheld, tokens), every tool call (input, output, duration).
 */
export function TimelinePanel(props: {
  timeline: SessionTimeline | undefined;
  error: Error | undefined;
}) {
  const { timeline, error } = props;
  const panel = useRef<HTMLElement>(null);
  const pinned = useRef(true);
  // Follows the newest entries while the reader is at the bottom; stays put once they scroll up.
  useLayoutEffect(() => {
    const element = panel.current;
    if (element !== null && pinned.current) element.scrollTop = element.scrollHeight;
  }, [timeline]);
  return (
    <aside
      className="timeline"
      aria-label="timeline"
      ref={panel}
      onScroll={(event) => {
        const element = event.currentTarget;
        pinned.current = element.scrollHeight - element.scrollTop - element.clientHeight < 60;
      }}
    >
      <h2>Timeline</h2>
      {error !== undefined && (
        <p className="stale" role="status">
          {timeline === undefined ? "Timeline unavailable" : "Timeline paused"}: {error.message}{" "}
          (retrying)
        </p>
      )}
      {timeline !== undefined && timeline.turns.length === 0 && (
        <p className="empty">No turns yet.</p>
      )}
      <ol className="turns">
        {timeline?.turns.map((turn) => (
          <TurnView key={turn.messageId} turn={turn} />
        ))}
      </ol>
      {timeline !== undefined && timeline.events.length > 0 && (
        <ul className="session-events">
          {timeline.events.map((event) => (
            <li key={event.offset}>
              <span className="label">{event.type}</span> <code>{shown(event.event)}</code>
            </li>
          ))}
        </ul>
      )}
    </aside>
  );
}
