import assert from "node:assert/strict";
import { describe, it } from "node:test";
import type { SessionMessage } from "../../../src/session/index.ts";
import {
  boundedSummary,
  compactionCut,
  MAX_SUMMARY_CHARS,
  transcriptOf,
} from "../../../workflows/history-window.ts";

function turn(n: number, withTool = false): SessionMessage[] {
  const messages: SessionMessage[] = [{ role: "user", content: `question ${n}` }];
  if (withTool) {
    messages.push(
      {
        role: "assistant",
        content: [
          { type: "tool-call", toolCallId: `c${n}`, toolName: "think", input: { topic: n } },
        ],
      },
      {
        role: "tool",
        content: [
          {
            type: "tool-result",
            toolCallId: `c${n}`,
            toolName: "think",
            output: { type: "text", value: "x".repeat(1000) },
          },
        ],
      },
    );
  }
  messages.push({ role: "assistant", content: [{ type: "text", text: `answer ${n}` }] });
  return messages;
}

describe("compactionCut", () => {
  it("waits for half a window of extra turns, then keeps exactly the window", () => {
    const four = [1, 2, 3, 4].flatMap((n) => turn(n));
    assert.equal(compactionCut(four, 4), undefined);
    const six = [1, 2, 3, 4, 5, 6].flatMap((n) => turn(n));
    assert.equal(compactionCut(six, 4), undefined);
    const seven = [1, 2, 3, 4, 5, 6, 7].flatMap((n) => turn(n));
    const cut = compactionCut(seven, 4);
    assert.equal(cut, 6);
    assert.deepEqual(seven[cut], { role: "user", content: "question 4" });
  });

  it("cuts only at a user message, never between a tool call and its result", () => {
    const messages = [1, 2, 3].flatMap((n) => turn(n, true));
    const cut = compactionCut(messages, 1);
    assert.equal(messages[cut ?? 0]?.role, "user");
    assert.equal(messages.slice(cut).filter((message) => message.role === "tool").length, 1);
  });
});

describe("the summarizer's view", () => {
  it("renders text, tool calls and truncated tool results", () => {
    const text = transcriptOf(turn(1, true));
    assert.match(text, /^user: question 1/);
    assert.match(text, /\[called think with \{"topic":1\}\]/);
    assert.match(text, /\[think returned .{400}…\]/);
    assert.match(text, /assistant: answer 1$/);
  });

  it("bounds the summary", () => {
    assert.equal(
      boundedSummary(`  ${"y".repeat(MAX_SUMMARY_CHARS + 10)}  `).length,
      MAX_SUMMARY_CHARS + 1,
    );
    assert.equal(boundedSummary(" short "), "short");
  });
});
