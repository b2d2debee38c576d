import { useChat } from "@ai-sdk/react";
import {
  DefaultChatTransport,
  lastAssistantMessageIsCompleteWithApprovalResponses,
  type UIMessage,
} from "ai";
import { useEffect, useMemo, useRef, useState } from "react";
import { authorizedFetch, cancelTurn } from "../api/api-fetch.ts";
import { authStore } from "../api/auth-store.ts";
import { ForkButton } from "./fork-button.tsx";
import { ApprovalContext, type ApprovalAnswer } from "./approval-context.ts";
import { MessageView } from "./message-view.tsx";

export interface ChatViewProps {
  sessionId: string;
  agentId: string;
  agentName: string;
  initialMessages: UIMessage[];
  /** The turn number of the first user message (earlier turns are in the summary). */
  firstTurn: number;
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
  firstTurn,
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
  /** The stop request in flight, or why it failed. */
  const [stopping, setStopping] = useState<"idle" | "stopping" | { failed: string }>("idle");
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
  useEffect(() => {
    if (!busy) setStopping("idle");
  }, [busy]);
  // useChat's own stop() only stops reading (the turn is durable, and useChat also stops on
  // unmount): the stop button asks the session to cancel the turn, and the stream then ends
  // by itself with the reply so far.
  const stopTurn = () => {
    setStopping("stopping");
    void cancelTurn(sessionId).then(
      () => undefined,
      (failure: unknown) => {
        setStopping({ failed: failure instanceof Error ? failure.message : String(failure) });
      },
    );
  };
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
          {messages.map((message, index) => {
            const turn = firstTurn + userMessagesBefore(messages, index);
            // A message whose turn is still running cannot be forked from yet.
            const answered = !(busy && index === lastUserIndex(messages));
            return (
              <MessageView
                key={message.id}
                message={message}
                agentName={agentName}
                action={
                  message.role === "user" && answered ? (
                    <ForkButton sessionId={sessionId} agentId={agentId} turn={turn} />
                  ) : undefined
                }
              />
            );
          })}
        </ApprovalContext.Provider>
        {busy && (
          <div className="typing">
            {agentName} is {stopping === "stopping" ? "stopping" : "working"}…
          </div>
        )}
        {typeof stopping === "object" && (
          <div className="chat-error" role="alert">
            Could not stop the turn: {stopping.failed}
          </div>
        )}
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
        {busy ? (
          <button
            type="button"
            className="stop"
            disabled={stopping === "stopping"}
            onClick={stopTurn}
          >
            Stop
          </button>
        ) : (
          <button type="submit" disabled={draft.trim() === ""}>
            Send
          </button>
        )}
      </form>
    </section>
  );
}

function userMessagesBefore(messages: readonly UIMessage[], index: number): number {
  return messages.slice(0, index).filter((message) => message.role === "user").length;
}

function lastUserIndex(messages: readonly UIMessage[]): number {
  return messages.findLastIndex((message) => message.role === "user");
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
