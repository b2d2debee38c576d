import assert from "node:assert/strict";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { after, describe, it } from "node:test";
import { generateText, isStepCount } from "ai";
import type { LanguageModelV4CallOptions, LanguageModelV4Prompt } from "@ai-sdk/provider";
import { createModelProvider } from "../../../src/llm/model-provider.ts";
import { testModelAccess } from "../../support/test-model-access.ts";
import { ScriptExhaustedError } from "../../../src/llm/scripted/script-exhausted-error.ts";
import { ScriptFileError } from "../../../src/llm/scripted/script-file-error.ts";
import { createScriptedModel } from "../../../src/llm/scripted/scripted-model.ts";
import { cognitiveToolSet } from "./cognitive-tool-set.ts";

const dir = mkdtempSync(join(tmpdir(), "scripted-model-"));
after(() => {
  rmSync(dir, { recursive: true, force: true });
});

function writeScript(name: string, script: unknown): string {
  const file = join(dir, name);
  writeFileSync(file, typeof script === "string" ? script : JSON.stringify(script));
  return file;
}

const twoStepScript = {
  responses: [
    {
      toolCalls: [
        { toolName: "think", input: { topic: "tabs or spaces", reasoning: "1. Both work." } },
      ],
    },
    { text: "Spaces, by a small margin." },
  ],
};

const userPrompt: LanguageModelV4Prompt = [
  { role: "user", content: [{ type: "text", text: "Tabs or spaces?" }] },
];

describe("scripted script mode", () => {
  it("plays its responses in order through generateText", async () => {
    const file = writeScript("two-step.json", twoStepScript);
    const result = await generateText({
      model: createScriptedModel(`script:${file}`),
      prompt: "Tabs or spaces?",
      tools: cognitiveToolSet(),
      stopWhen: isStepCount(5),
      maxRetries: 0,
    });

    assert.deepEqual(
      result.steps.map((step) => step.toolCalls.map((call) => call.toolName)),
      [["think"], []],
    );
    assert.deepEqual(result.steps[0]?.toolCalls[0]?.input, {
      topic: "tabs or spaces",
      reasoning: "1. Both work.",
    });
    assert.equal(result.text, "Spaces, by a small margin.");
  });

  it("is stateless: the same prompt gets the same response, however often it is asked", async () => {
    const model = createScriptedModel(`script:${writeScript("stateless.json", twoStepScript)}`);
    const options: LanguageModelV4CallOptions = { prompt: userPrompt };
    const first = await model.doGenerate(options);
    const second = await model.doGenerate(options);

    assert.deepEqual(second.content, first.content);
    assert.deepEqual(first.content, [
      {
        type: "tool-call",
        toolCallId: "call-1-1",
        toolName: "think",
        input: JSON.stringify(twoStepScript.responses[0]?.toolCalls?.[0]?.input),
      },
    ]);
  });

  it("resolves a relative script path against the configured script directory", async () => {
    writeScript("relative.json", { responses: [{ text: "from the script dir" }] });
    const provider = createModelProvider({ scripted: { scriptDir: dir } }, testModelAccess);
    const result = await provider
      .languageModel("scripted:script:relative.json")
      .doGenerate({ prompt: userPrompt });

    assert.deepEqual(result.content, [{ type: "text", text: "from the script dir" }]);
  });

  it("fails with ScriptExhaustedError when the conversation outgrows the script", async () => {
    const file = writeScript("short.json", {
      responses: [
        { toolCalls: [{ toolName: "think", input: { topic: "a", reasoning: "b" } }] },
        { toolCalls: [{ toolName: "think", input: { topic: "c", reasoning: "d" } }] },
      ],
    });
    const attempt = generateText({
      model: createScriptedModel(`script:${file}`),
      prompt: "Go.",
      tools: cognitiveToolSet(),
      stopWhen: isStepCount(5),
      maxRetries: 0,
    });

    await assert.rejects(attempt, (error: unknown) => {
      assert.ok(error instanceof ScriptExhaustedError);
      assert.equal(
        error.message,
        `script ${file} has 2 responses and the conversation asks for response 3`,
      );
      return true;
    });
  });

  for (const [name, content, message] of [
    ["missing.json", undefined, /missing\.json cannot be read: ENOENT/],
    ["not-json.json", "{ responses: ", /not-json\.json is not valid JSON/],
    [
      "bad-call.json",
      { responses: [{ text: "ok" }, { toolCalls: [{ toolName: "", input: {} }] }] },
      /bad-call\.json is invalid:\n {2}responses\[1\]\.toolCalls\[0\]\.toolName: /,
    ],
    [
      "empty-response.json",
      { responses: [{ delayMs: 5 }] },
      /responses\[0\]: a response needs "text", "toolCalls" or both/,
    ],
    ["no-responses.json", { responses: [] }, /responses: /],
  ] as const) {
    it(`reports an unusable script with the file and the place: ${name}`, async () => {
      const file = content === undefined ? join(dir, name) : writeScript(name, content);
      const model = createScriptedModel(`script:${file}`);

      await assert.rejects(
        Promise.resolve(model.doGenerate({ prompt: userPrompt })),
        (error: unknown) => {
          assert.ok(error instanceof ScriptFileError);
          assert.match(error.message, message);
          return true;
        },
      );
    });
  }

  it("waits the response's delay, and stops waiting when aborted", async () => {
    const file = writeScript("slow.json", {
      delayMs: 60_000,
      responses: [{ text: "fast", delayMs: 30 }, { text: "slow" }],
    });
    const model = createScriptedModel(`script:${file}`);
    const started = performance.now();
    await model.doGenerate({ prompt: userPrompt });
    assert.ok(performance.now() - started >= 25);

    const controller = new AbortController();
    const slow = Promise.resolve(
      model.doGenerate({
        prompt: [...userPrompt, { role: "assistant", content: [{ type: "text", text: "fast" }] }],
        abortSignal: controller.signal,
      }),
    );
    controller.abort();
    await assert.rejects(slow, { name: "AbortError" });
  });
});
