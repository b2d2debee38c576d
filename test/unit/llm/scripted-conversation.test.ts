import assert from "node:assert/strict";
import { describe, it } from "node:test";
import type { LanguageModelV4Prompt } from "@ai-sdk/provider";
import { readConversation } from "../../../src/llm/scripted/conversation.ts";

/** A prompt whose turn called `search` once and got `errorText` back as a tool error. */
function promptWithToolError(errorText: string): LanguageModelV4Prompt {
  return [
    { role: "user", content: [{ type: "text", text: "Research remote work" }] },
    {
      role: "assistant",
      content: [{ type: "tool-call", toolCallId: "c1", toolName: "search", input: {} }],
    },
    {
      role: "tool",
      content: [
        {
          type: "tool-result",
          toolCallId: "c1",
          toolName: "search",
          output: { type: "error-text", value: errorText },
        },
      ],
    },
  ];
}

describe("a failed tool's heading in the scripted model", () => {
  // The workflow throws `search failed: <cause>` and the AI SDK stringifies it with
  // Error#toString, so the model reads "Error: search failed: <cause>".
  const cases: [string, string][] = [
    [
      "Error: search failed: Web search is not configured on this server.",
      "search failed: Web search is not configured on this server.",
    ],
    ["search failed: the provider answered 502", "search failed: the provider answered 502"],
    ["Error: timed out", "search failed: timed out"],
    ["the provider answered 502", "search failed: the provider answered 502"],
  ];
  for (const [errorText, heading] of cases) {
    it(`names the tool and the cause once for ${JSON.stringify(errorText)}`, () => {
      const [call] = readConversation(promptWithToolError(errorText)).turnCalls;
      assert.equal(call?.result?.isError, true);
      assert.equal(call.result.heading, heading);
    });
  }
});
