import type { UIMessage } from "ai";
import type { OrchestrationEvent } from "../orchestration/index.ts";
import type { LoggedEvent, SessionMessage } from "../session/index.ts";

/** A UI message part as `useChat` keeps it (the shapes the AI SDK's stream reader builds). */
type UIPart = UIMessage["parts"][number];

/** Where an orchestration event belongs in its turn's reply: after a tool call, or first. */
export interface PlacedOrchestration {
  event: OrchestrationEvent;
  /** The tool call the event followed (a sequence advanced by it); undefined: before any. */
  afterToolCallId?: string;
}

/** One turn's orchestration changes, with the message that started it. */
export interface TurnOrchestration {
  text: string;
  events: PlacedOrchestration[];
}

/**
 * The orchestration events of each turn the event log still holds, in turn order, each placed
 * after the tool call that preceded it (as the live stream interleaves them).
 */
export function orchestrationByTurn(events: readonly LoggedEvent[]): TurnOrchestration[] {
  const turns: TurnOrchestration[] = [];
  let current: PlacedOrchestration[] | undefined;
  let lastToolCallId: string | undefined;
  for (const { event } of events) {
    if (event.type === "turn_started") {
      current = [];
      turns.push({ text: event.text, events: current });
      lastToolCallId = undefined;
    } else if (event.type === "tool_started") {
      lastToolCallId = event.toolCallId;
    } else if (event.type === "orchestration" && current !== undefined) {
      current.push({
        event: event.event,
        ...(lastToolCallId === undefined ? {} : { afterToolCallId: lastToolCallId }),
      });
    }
  }
  return turns;
}

export interface ToUIMessagesOptions {
  /** Message ids are `<idPrefix><index>`: the model messages keep no ids of their own. */
  idPrefix?: string;
  /**
   * The orchestration events of the latest turns (from `orchestrationByTurn`). The event log is
   * bounded, so it may hold fewer turns than the history: they are matched from the last turn
   * back (every turn adds exactly one user message, summaries drop whole turns). Turns newer
   * than the history's last user message (the log read after it) are left out.
   */
  orchestration?: readonly TurnOrchestration[];
}

type ContentPart = Record<string, unknown> & { type?: unknown };

function contentParts(content: unknown): ContentPart[] {
  if (typeof content === "string") return content === "" ? [] : [{ type: "text", text: content }];
  return Array.isArray(content) ? (content as ContentPart[]) : [];
}

const isToolPart = (part: UIPart): part is Extract<UIPart, { toolCallId: string }> =>
  part.type.startsWith("tool-") && "toolCallId" in part;

/** A tool result's output as the UI shows it: a value, or the error the model was told. */
function toolOutcome(output: unknown): { output: unknown } | { errorText: string } {
  if (typeof output !== "object" || output === null || !("type" in output)) return { output };
  const typed = output as { type: string; value?: unknown; reason?: unknown };
  switch (typed.type) {
    case "json":
    case "text":
    case "content":
      return { output: typed.value };
    case "error-text":
      return { errorText: String(typed.value) };
    case "error-json":
      return { errorText: JSON.stringify(typed.value) };
    case "execution-denied":
      return {
        errorText: typeof typed.reason === "string" ? typed.reason : "the tool call was denied",
      };
    default:
      return { output };
  }
}

/**
 * The session's model messages as the `UIMessage[]` that `useChat` takes as `messages`, so a
 * page restores its chat after a reload in the shapes the live stream produced: user text;
 * one assistant message per turn with a `step-start` for each model step, its text and
 * reasoning, each tool call as a `tool-<name>` part with input and output (or error), and the
 * turn's orchestration changes as `data-orchestration` parts when given. A summary of earlier
 * turns stays a system message.
 */
export function toUIMessages(
  messages: readonly SessionMessage[],
  options: ToUIMessagesOptions = {},
): UIMessage[] {
  const idPrefix = options.idPrefix ?? "history-";
  const users = messages.filter((message) => message.role === "user");
  const userCount = users.length;
  const lastUserText = contentParts(users.at(-1)?.["content"])
    .flatMap((part) =>
      part.type === "text" && typeof part["text"] === "string" ? [part["text"]] : [],
    )
    .join("");
  const orchestration = [...(options.orchestration ?? [])];
  // Turns that started after the history was read: at most a few, each with its own message.
  while (orchestration.length > 0 && orchestration.at(-1)?.text !== lastUserText) {
    orchestration.pop();
  }
  // The orchestration of the n-th user message's turn, matched from the end.
  const turnOffset = orchestration.length - userCount;
  let userIndex = -1;
  let pending: readonly PlacedOrchestration[] = [];
  const result: UIMessage[] = [];
  const push = (role: UIMessage["role"], parts: UIPart[]): UIMessage => {
    const message: UIMessage = { id: `${idPrefix}${result.length}`, role, parts };
    result.push(message);
    return message;
  };
  let assistant: UIMessage | undefined;

  for (const message of messages) {
    if (message.role === "system" || message.role === "user") {
      assistant = undefined;
      const parts = contentParts(message["content"]).flatMap((part): UIPart[] =>
        part.type === "text" && typeof part["text"] === "string"
          ? [{ type: "text", text: part["text"] }]
          : [],
      );
      push(message.role, parts);
      if (message.role === "user") {
        userIndex++;
        pending = orchestration[turnOffset + userIndex]?.events ?? [];
      }
      continue;
    }
    if (message.role === "assistant") {
      if (assistant === undefined) {
        assistant = push("assistant", placed(pending, undefined));
      }
      const parts = assistant.parts;
      parts.push({ type: "step-start" });
      for (const part of contentParts(message["content"])) {
        if (part.type === "text" && typeof part["text"] === "string") {
          if (part["text"] !== "") parts.push({ type: "text", text: part["text"], state: "done" });
        } else if (part.type === "reasoning" && typeof part["text"] === "string") {
          parts.push({ type: "reasoning", text: part["text"], state: "done" });
        } else if (
          part.type === "tool-call" &&
          typeof part["toolCallId"] === "string" &&
          typeof part["toolName"] === "string"
        ) {
          parts.push({
            type: `tool-${part["toolName"]}`,
            toolCallId: part["toolCallId"],
            state: "input-available",
            input: part["input"],
          });
        }
      }
      continue;
    }
    // A tool message: the results of the calls the assistant message before it made.
    if (assistant === undefined) continue;
    for (const part of contentParts(message["content"])) {
      if (part.type !== "tool-result" || typeof part["toolCallId"] !== "string") continue;
      const parts = assistant.parts;
      const index = parts.findIndex(
        (candidate) => isToolPart(candidate) && candidate.toolCallId === part["toolCallId"],
      );
      const call = parts[index];
      if (call === undefined || !isToolPart(call)) continue;
      const outcome = toolOutcome(part["output"]);
      const settled: UIPart =
        "errorText" in outcome
          ? {
              type: call.type as `tool-${string}`,
              toolCallId: call.toolCallId,
              state: "output-error",
              input: call.input,
              errorText: outcome.errorText,
            }
          : {
              type: call.type as `tool-${string}`,
              toolCallId: call.toolCallId,
              state: "output-available",
              input: call.input,
              output: outcome.output,
            };
      parts.splice(index, 1, settled, ...placed(pending, call.toolCallId));
    }
  }
  return result;
}

function placed(
  events: readonly PlacedOrchestration[],
  afterToolCallId: string | undefined,
): UIPart[] {
  return events
    .filter((entry) => entry.afterToolCallId === afterToolCallId)
    .map((entry) => ({ type: "data-orchestration" as const, data: entry.event }));
}
