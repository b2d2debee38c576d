import type { UIMessage } from "ai";
import { ApiRequestError } from "../api/api-fetch.ts";
import { useApi } from "../hooks/use-api.ts";
import { ChatView } from "./chat-view.tsx";

interface HistoryBody {
  messages: UIMessage[];
}

/**
 * Restores the conversation from `/history?format=ui`, then mounts the chat with it (a session
 * that does not exist yet starts empty: its first message creates it).
 */
export function ChatPanel(props: {
  sessionId: string;
  agentId: string;
  agentName: string;
  /** The turn number of the first user message shown (turns before it are in the summary). */
  firstTurn: number;
  onActivity: () => void;
}) {
  const history = useApi<HistoryBody>(
    `/api/sessions/${encodeURIComponent(props.sessionId)}/history?format=ui`,
  );
  const missing = history.error instanceof ApiRequestError && history.error.status === 404;
  if (history.data === undefined && !missing) {
    return (
      <section className="chat">
        {history.error === undefined ? (
          <p className="empty">Loading the conversation…</p>
        ) : (
          <p className="chat-error" role="alert">
            Could not load the conversation: {history.error.message}{" "}
            <button type="button" onClick={history.reload}>
              Retry
            </button>
          </p>
        )}
      </section>
    );
  }
  return <ChatView {...props} initialMessages={history.data?.messages ?? []} />;
}
