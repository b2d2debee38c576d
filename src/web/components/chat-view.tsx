import { useChat } from "@ai-sdk/react";
import {
  DefaultChatTransport,
  lastAssistantMessageIsCompleteWithApprovalResponses,
  type UIMessage,
} from "ai";
import { useEffect, useMemo, useRef, useState } from "react";
import { authorizedFetch } from "../api/api-fetch.ts";
import { authStore } from "../api/auth-store.ts";
import { ApprovalContext, type ApprovalAnswer } from "./approval-context.ts";
import { MessageView } from "./message-view.tsx";

export interface ChatViewProps {
  sessionId: string;
  agentId: string;
  agentName: string;
  initialMessages: UIMessage[];
  /** Called when a turn starts or ends, so the timeline and header load again. */
  onActivity: () => void;
}

/**
 * The chat, on `useChat` and the AI SDK's own transport pointed at the API's chat route. On load
 * it resumes a turn still running (`resume: true` asks `/api/chat/:agent/:id/stream`), after the
 * conversation restored from `/history?format=ui`.
 */
export function ChatView({
  sessionId,
  agentId,
  agentName,
  initialMessages,
  onActivity,
}: ChatViewProps) {
  const transport = useMemo(
    () =>
      new DefaultChatTransport<UIMessage>({
        api: `/api/chat/${encodeURIComponent(agentId)}`,
        headers: () => authStore.headers(),
        fetch: authorizedFetch,
      }),
    [agentId],
  );
  const { messages, sendMessage, status, error, clearError, addToolApprovalResponse } = useChat({
    id: sessionId,
    messages: initialMessages,
    transport,
    resume: true,
    // An answer to a tool approval goes back at once; the API continues the turn that waited.
    sendAutomaticallyWhen: lastAssistantMessageIsCompleteWithApprovalResponses,
  });
  const answerApproval = useMemo(
    () => (answer: ApprovalAnswer) => {
      clearError();
      void addToolApprovalResponse(answer);
    },
    [addToolApprovalResponse, clearError],
  );
  const [draft, setDraft] = useState("");
  const end = useRef<HTMLDivElement>(null);
  const activity = useRef(onActivity);
  activity.current = onActivity;

  useEffect(() => {
    activity.current();
  }, [status]);
  useEffect(() => {
    end.current?.scrollIntoView({ block: "end" });
  }, [messages]);

  const busy = status === "submitted" || status === "streaming";
  const submit = (event: { preventDefault(): void }) => {
    event.preventDefault();
    const text = draft.trim();
    if (text === "" || busy) return;
    clearError();
    setDraft("");
    void sendMessage({ text });
  };

  return (
    <section className="chat" aria-label="chat">
      <div className="messages">
        {messages.length === 0 && (
          <p className="empty">No messages yet. Say something to {agentName}.</p>
        )}
        <ApprovalContext.Provider value={answerApproval}>
          {messages.map((message) => (
            <MessageView key={message.id} message={message} agentName={agentName} />
          ))}
        </ApprovalContext.Provider>
        {busy && <div className="typing">{agentName} is working…</div>}
        {error !== undefined && (
          <div className="chat-error" role="alert">
            {errorText(error)}
          </div>
        )}
        <div ref={end} />
      </div>
      <form className="composer" onSubmit={submit}>
        <textarea
          aria-label="message"
          value={draft}
          placeholder={`Message ${agentName}… (Enter sends, Shift+Enter for a new line)`}
          onChange={(event) => {
            setDraft(event.target.value);
          }}
          onKeyDown={(event) => {
            if (event.key === "Enter" && !event.shiftKey) submit(event);
          }}
        />
        <button type="submit" disabled={busy || draft.trim() === ""}>
          Send
        </button>
      </form>
    </section>
  );
}

/** The API's JSON error, when the transport passes its body on as the message. */
function errorText(error: Error): string {
  try {
    const body = JSON.parse(error.message) as { error?: { message?: string } };
    return body.error?.message ?? error.message;
  } catch {
    return error.message;
  }
}
