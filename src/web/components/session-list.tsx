import type { SessionListing } from "../api/api-types.ts";
import { sinceNow } from "../format.ts";
import { useApi } from "../hooks/use-api.ts";
import { navigate } from "../hooks/use-location.ts";

function sessionHref(session: SessionListing): string {
  const agent = session.agentId === null ? "" : `?agent=${encodeURIComponent(session.agentId)}`;
  return `/sessions/${encodeURIComponent(session.sessionId)}${agent}`;
}

/** Sessions from Temporal visibility, newest first, refreshed every few seconds. */
export function SessionList() {
  const sessions = useApi<{ sessions: SessionListing[] }>("/api/sessions?limit=50", 5_000);
  return (
    <section className="sessions" aria-label="sessions">
      <h2>Sessions</h2>
      {sessions.error !== undefined && (
        <p className="chat-error" role="alert">
          Could not list sessions: {sessions.error.message}
        </p>
      )}
      {sessions.data?.sessions.length === 0 && <p className="empty">No sessions yet.</p>}
      {sessions.data !== undefined && sessions.data.sessions.length > 0 && (
        <table>
          <thead>
            <tr>
              <th>Session</th>
              <th>Agent</th>
              <th>Step</th>
              <th>Status</th>
              <th>Turns</th>
              <th>Last activity</th>
            </tr>
          </thead>
          <tbody>
            {sessions.data.sessions.map((session) => (
              <tr key={session.workflowId} data-session={session.sessionId}>
                <td>
                  <a
                    href={sessionHref(session)}
                    onClick={(event) => {
                      event.preventDefault();
                      navigate(sessionHref(session));
                    }}
                  >
                    {session.sessionId}
                  </a>
                </td>
                <td>{session.agentId ?? "—"}</td>
                <td>{session.activeStep ?? "—"}</td>
                <td>
                  <span className={`status status-${session.sessionStatus ?? session.status}`}>
                    {session.status === "running"
                      ? (session.sessionStatus ?? "running")
                      : session.status}
                  </span>
                </td>
                <td>{session.turns ?? 0}</td>
                <td title={session.lastActivity}>{sinceNow(session.lastActivity)}</td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
    </section>
  );
}
