import { useCallback, useMemo } from "react";
import type {
  AgentSummary,
  ConsoleConfig,
  SessionTimeline,
  SessionView,
} from "../api/api-types.ts";
import { ApiRequestError } from "../api/api-fetch.ts";
import { useApi } from "../hooks/use-api.ts";
import { useLiveRefresh } from "../hooks/use-live-refresh.ts";
import { ChatPanel } from "./chat-panel.tsx";
import { SessionHeader } from "./session-header.tsx";
import { TimelinePanel } from "./timeline-panel.tsx";
import { ToolCallsContext } from "./tool-calls-context.ts";

/**
 * One session: the chat and, beside it, the live timeline. The agent comes from the address
 * (`?agent=`, set by the list and the new-session form) or else from the session's state.
 */
export function SessionPage(props: { sessionId: string; agentParam: string | null }) {
  const { sessionId } = props;
  const base = `/api/sessions/${encodeURIComponent(sessionId)}`;
  const config = useApi<ConsoleConfig>("/api/config");
  const agents = useApi<{ agents: AgentSummary[] }>("/api/agents");
  const state = useApi<SessionView>(base, 5_000);
  const timeline = useApi<SessionTimeline>(`${base}/timeline`, 4_000);
  const refresh = useCallback(() => {
    state.reload();
    timeline.reload();
  }, [state.reload, timeline.reload]);
  useLiveRefresh(sessionId, refresh);
  const toolCalls = useMemo(
    () =>
      new Map(
        (timeline.data?.turns ?? [])
          .flatMap((turn) => turn.entries)
          .flatMap((entry) =>
            entry.kind === "tool_call" ? [[entry.toolCallId, entry] as const] : [],
          ),
      ),
    [timeline.data],
  );

  const agentId = props.agentParam ?? state.data?.agentId;
  const isNew = state.error instanceof ApiRequestError && state.error.status === 404;
  if (agentId === undefined) {
    return (
      <main className="page">
        <p className={state.error === undefined || isNew ? "empty" : "chat-error"}>
          {isNew
            ? `No session "${sessionId}". Start one from the sessions list.`
            : state.error === undefined
              ? "Loading the session…"
              : `Could not load the session: ${state.error.message}`}
        </p>
      </main>
    );
  }
  const agent = agents.data?.agents.find((candidate) => candidate.id === agentId);
  const agentName = agent?.name ?? agentId;
  return (
    <main className="session-page">
      <SessionHeader
        sessionId={sessionId}
        agentName={agentName}
        state={isNew ? undefined : state.data}
        config={config.data}
        agentVersion={agent?.version}
        onChange={refresh}
      />
      <div className="session-body">
        <ToolCallsContext value={toolCalls}>
          <ChatPanel
            sessionId={sessionId}
            agentId={agentId}
            agentName={agentName}
            firstTurn={(state.data?.summarizedTurns ?? 0) + 1}
            onActivity={refresh}
          />
        </ToolCallsContext>
        <TimelinePanel
          timeline={timeline.data}
          error={
            timeline.error instanceof ApiRequestError && timeline.error.status === 404
              ? undefined
              : timeline.error
          }
        />
      </div>
    </main>
  );
}
