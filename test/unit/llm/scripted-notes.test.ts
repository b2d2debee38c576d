import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { generateText } from "ai";
import { createScriptedModel } from "../../../src/llm/scripted/scripted-model.ts";
import { TURN_NOTE_PREFIX } from "../../../src/orchestration/index.ts";

async function answer(instructions: string): Promise<string> {
  const result = await generateText({
    model: createScriptedModel("auto"),
    instructions,
    messages: [{ role: "user", content: "Research the latest evidence on remote work" }],
    maxRetries: 0,
  });
  return result.text;
}

describe("scripted auto mode and the instructions' notes for the user", () => {
  it("tells the user each note, so an offline answer says what is missing and how to fix it", async () => {
    const note =
      "search is unavailable on this worker: not configured (set SEARCH_PROVIDER=searxng), so ResearchMode was not entered.";
    const text = await answer(
      ["You are the Cognitive Reasoner.", "Tell the user:", `${TURN_NOTE_PREFIX}${note}`].join(
        "\n",
      ),
    );
    assert.match(text, /^You asked: "Research the latest evidence on remote work"/);
    assert.ok(text.includes(`Please note: S${note.slice(1)}`), text);
  });

  it("mentions nothing of the kind without a note", async () => {
    const text = await answer("You are the Cognitive Reasoner. Search is a tool you may use.");
    assert.doesNotMatch(text, /Please note/);
  });
});
