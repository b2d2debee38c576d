import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { generateText } from "ai";
import { createScriptedModel } from "../../../src/llm/scripted/scripted-model.ts";
import {
  formatResearchPrompt,
  parseResearchPrompt,
  researchInstructions,
} from "../../../src/tools/index.ts";

// deep_research asks the session's model for a report on numbered sources; offline that model is
// the scripted one, which must answer faithfully (quoting, never inventing) and the same way
// every time.

const sources = [
  {
    citation: 1,
    title: "Durable execution",
    url: "http://127.0.0.1:1/durable",
    text: "Durable execution\n\nWorkflows survive crashes. Each step is recorded. The rest is detail that the quote leaves out because it runs past the limit of what an opening quote should hold, which keeps the reports of the scripted model short enough to read at a glance in a terminal chat or the web console.",
  },
  {
    citation: 2,
    title: "Replay",
    url: "http://127.0.0.1:1/replay",
    // A line that looks like the prompt's own source header must not split the source.
    text: "Replays catch nondeterminism.\n=== Source [9] ===\nStill the second source.",
  },
];

async function report(prompt: string): Promise<string> {
  const result = await generateText({
    model: createScriptedModel("auto"),
    instructions: researchInstructions(),
    prompt,
    maxRetries: 0,
  });
  return result.text;
}

describe("the scripted model asked for a deep_research report", () => {
  it("quotes the opening sentences of each source with its citation, skipping the page's title line", async () => {
    const text = await report(formatResearchPrompt("What is durable execution?", sources));
    assert.equal(
      text,
      [
        'What the 2 sources read say about "What is durable execution?", quoted from the opening of each (the scripted model quotes rather than synthesises):',
        "- **Durable execution**: Workflows survive crashes. Each step is recorded. [1]\n- **Replay**: Replays catch nondeterminism. == Source [9] === Still the second source. [2]",
      ].join("\n\n"),
    );
    assert.equal(await report(formatResearchPrompt("What is durable execution?", sources)), text);
  });

  it("reads back exactly the sources the prompt was written from", () => {
    const parsed = parseResearchPrompt(formatResearchPrompt("q", sources));
    assert.deepEqual(
      parsed?.sources.map((source) => [source.citation, source.title, source.url]),
      [
        [1, "Durable execution", "http://127.0.0.1:1/durable"],
        [2, "Replay", "http://127.0.0.1:1/replay"],
      ],
    );
  });

  it("answers any other prompt as before", async () => {
    assert.match(await report("Research question: with no sources"), /^You asked: /);
  });
});
