import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { validateUIMessages, type UIMessage } from "ai";
import { orchestrationByTurn, toUIMessages } from "../../../src/client/index.ts";
import type { LoggedEvent, SessionEvent, SessionMessage } from "../../../src/session/index.ts";

const call = (id: string, toolName: string, input: unknown) => ({
  type: "tool-call",
  toolCallId: id,
  toolName,
  input,
});
const toolResult = (id: string, toolName: string, output: unknown): SessionMessage => ({
  role: "tool",
  content: [{ type: "tool-result", toolCallId: id, toolName, output }],
});

/** Two turns: the first calls a tool that works and one that is refused, the second answers. */
const history: SessionMessage[] = [
  { role: "system", content: "Summary of the 3 earlier turns: greetings." },
  { role: "user", content: "Search for otters" },
  { role: "assistant", content: [call("c1", "search", { query: "otters" })] },
  toolResult("c1", "search", { type: "json", value: { hits: 2 } }),
  {
    role: "assistant",
    content: [{ type: "reasoning", text: "Now write." }, call("c2", "write", { to: "x" })],
  },
  toolResult("c2", "write", { type: "error-text", value: "refused: write is not allowed here" }),
  { role: "assistant", content: [{ type: "text", text: "Otters hold hands." }] },
  { role: "user", content: "Thanks" },
  { role: "assistant", content: "You are welcome." },
];

function logged(events: SessionEvent[]): LoggedEvent[] {
  return events.map((event, offset) => ({ offset, event }));
}

const entered = (step: string): SessionEvent => ({
  type: "orchestration",
  event: { type: "step_entered", step, reason: "default", conditions: [] },
});

describe("toUIMessages: a session's history as useChat's messages", () => {
  it("groups each turn's steps into one assistant message with text, reasoning and tool parts", async () => {
    const messages = toUIMessages(history);
    assert.deepEqual(
      messages.map((message) => [message.id, message.role]),
      [
        ["history-0", "system"],
        ["history-1", "user"],
        ["history-2", "assistant"],
        ["history-3", "user"],
        ["history-4", "assistant"],
      ],
    );
    assert.deepEqual(messages[2]?.parts, [
      { type: "step-start" },
      {
        type: "tool-search",
        toolCallId: "c1",
        state: "output-available",
        input: { query: "otters" },
        output: { hits: 2 },
      },
      { type: "step-start" },
      { type: "reasoning", text: "Now write.", state: "done" },
      {
        type: "tool-write",
        toolCallId: "c2",
        state: "output-error",
        input: { to: "x" },
        errorText: "refused: write is not allowed here",
      },
      { type: "step-start" },
      { type: "text", text: "Otters hold hands.", state: "done" },
    ]);
    assert.deepEqual(messages[4]?.parts, [
      { type: "step-start" },
      { type: "text", text: "You are welcome.", state: "done" },
    ]);
    await validateUIMessages<UIMessage>({ messages });
  });

  it("places each turn's orchestration changes after the tool call they followed, matched from the last turn back", () => {
    const events = logged([
      // The log lost the turns before "Search for otters" (it is bounded).
      { type: "turn_started", messageId: "m1", turn: 4, text: "Search for otters" },
      entered("Research"),
      { type: "tool_started", toolCallId: "c1", toolName: "search" },
      {
        type: "orchestration",
        event: {
          type: "sequence_advanced",
          step: "Research",
          tool: "search",
          position: 1,
          length: 2,
          next: ["write"],
        },
      },
      { type: "turn_finished", messageId: "m1", turn: 4, text: "Otters hold hands." },
      { type: "turn_started", messageId: "m2", turn: 5, text: "Thanks" },
      entered("Main"),
      { type: "turn_finished", messageId: "m2", turn: 5, text: "You are welcome." },
      // A turn that started after the history was read: not this history's.
      { type: "turn_started", messageId: "m3", turn: 6, text: "And seals?" },
      entered("Elsewhere"),
    ]);
    const messages = toUIMessages(history, { orchestration: orchestrationByTurn(events) });
    const shape = (message: UIMessage | undefined) =>
      message?.parts.map((part) =>
        part.type === "data-orchestration"
          ? `data:${(part.data as { type: string; step: string }).type}:${(part.data as { step: string }).step}`
          : part.type,
      );
    assert.deepEqual(shape(messages[2]), [
      "data:step_entered:Research",
      "step-start",
      "tool-search",
      "data:sequence_advanced:Research",
      "step-start",
      "reasoning",
      "tool-write",
      "step-start",
      "text",
    ]);
    assert.deepEqual(shape(messages[4]), ["data:step_entered:Main", "step-start", "text"]);
  });

  it("keeps a tool call without a result as input-available and a denied one as an error", async () => {
    const messages = toUIMessages([
      { role: "user", content: [{ type: "text", text: "Go" }] },
      { role: "assistant", content: [call("a", "think", {}), call("b", "fetch", { url: "/x" })] },
      toolResult("b", "fetch", { type: "execution-denied", reason: "not approved" }),
    ]);
    assert.deepEqual(
      messages[1]?.parts.map((part) => ("state" in part ? [part.type, part.state] : [part.type])),
      [["step-start"], ["tool-think", "input-available"], ["tool-fetch", "output-error"]],
    );
    const denied = messages[1].parts.find((part) => part.type === "tool-fetch");
    assert.equal((denied as { errorText?: string } | undefined)?.errorText, "not approved");
    await validateUIMessages<UIMessage>({ messages });
  });
});
