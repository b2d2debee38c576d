import { isToolUIPart, type UIMessage } from "ai";
import type { ReactNode } from "react";
import type { OrchestrationEvent } from "../api/api-types.ts";
import { shown } from "../format.ts";
import { MarkdownText } from "./markdown-text.tsx";
import { OrchestrationLine } from "./orchestration-line.tsx";
import { ToolPartView } from "./tool-part-view.tsx";

type Part = UIMessage["parts"][number];

function PartView({ part, role }: { part: Part; role: UIMessage["role"] }) {
  if (isToolUIPart(part)) return <ToolPartView part={part} />;
  switch (part.type) {
    case "text":
      // What a person typed is shown as typed; the model writes Markdown.
      return role === "assistant" ? (
        <MarkdownText text={part.text} />
      ) : (
        <div className="text">{part.text}</div>
      );
    case "reasoning":
      return (
        <details className="reasoning">
          <summary>reasoning</summary>
          {part.text}
        </details>
      );
    case "step-start":
      return <hr className="step-start" />;
    case "data-orchestration": {
      const event = part.data as OrchestrationEvent;
      // The tool part above already shows the call; the timeline keeps the bookkeeping.
      return event.type === "tool_recorded" ? null : <OrchestrationLine event={event} />;
    }
    default:
      return <pre className="unknown-part">{shown(part)}</pre>;
  }
}

const roleNames: Record<UIMessage["role"], string> = {
  user: "you",
  assistant: "agent",
  system: "summary",
};

/** A reply whose turn was cancelled (the stream's `finish` metadata says so). */
function isStopped(message: UIMessage): boolean {
  const metadata = message.metadata as { cancelled?: unknown } | undefined;
  return metadata?.cancelled === true;
}

/** One message of the chat, every part in order. */
export function MessageView({
  message,
  agentName,
  action,
}: {
  message: UIMessage;
  agentName: string;
  /** A control shown in the message's header (fork from here, on user messages). */
  action?: ReactNode;
}) {
  return (
    <article className={`message ${message.role}`} data-role={message.role}>
      <header>
        {message.role === "assistant" ? agentName : roleNames[message.role]}
        {action}
      </header>
      {message.parts.map((part, index) => (
        <PartView key={index} part={part} role={message.role} />
      ))}
      {isStopped(message) && <div className="stopped">⏹ stopped: the reply ends here</div>}
    </article>
  );
}
