import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { formatRecap } from "../../../src/cli/chat-recap.ts";

describe("the recap a resumed chat shows", () => {
  it("shows the last user message and the agent's final reply, not tool calls or earlier turns", () => {
    const recap = formatRecap(
      [
        { role: "user", content: "hello" },
        { role: "assistant", content: [{ type: "text", text: "Hi there." }] },
        { role: "user", content: [{ type: "text", text: "Please   evaluate\nmy plan" }] },
        {
          role: "assistant",
          content: [{ type: "tool-call", toolCallId: "c1", toolName: "critique", input: {} }],
        },
        {
          role: "tool",
          content: [{ type: "tool-result", toolCallId: "c1", toolName: "critique" }],
        },
        { role: "assistant", content: [{ type: "text", text: "It holds up.\n\nShip it." }] },
      ],
      "Cognitive Reasoner",
    );
    assert.equal(
      recap,
      "Last exchange:\n  you › Please evaluate my plan\n  Cognitive Reasoner › It holds up.\n    Ship it.",
    );
  });

  it("keeps a long reply to its first six lines, marked as cut", () => {
    const reply = Array.from({ length: 10 }, (_, index) => `line ${index + 1}`).join("\n");
    const recap = formatRecap(
      [
        { role: "user", content: "go" },
        { role: "assistant", content: reply },
      ],
      "A",
    );
    assert.ok(recap !== undefined);
    const lines = recap.split("\n");
    assert.equal(lines.length, 2 + 6);
    assert.equal(lines.at(-1), "    line 6 …");
  });

  it("bounds a long user message and says when there is no reply yet", () => {
    const recap = formatRecap([{ role: "user", content: "x".repeat(500) }], "A");
    assert.ok(recap !== undefined);
    const [, you, agent] = recap.split("\n");
    assert.ok(you !== undefined);
    assert.equal(you.length, "  you › ".length + 200);
    assert.ok(you.endsWith("…"));
    assert.equal(agent, "  A › (no reply yet)");
  });

  it("shows nothing for a session with no messages", () => {
    assert.equal(formatRecap([], "A"), undefined);
  });
});
