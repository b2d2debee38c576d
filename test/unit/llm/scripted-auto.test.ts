import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { generateText, isStepCount, type ModelMessage } from "ai";
import type { LanguageModelV4CallOptions, LanguageModelV4Prompt } from "@ai-sdk/provider";
import { createScriptedModel } from "../../../src/llm/scripted/scripted-model.ts";
import {
  cognitiveToolOrder,
  cognitiveToolSet,
  type CognitiveToolSet,
} from "./cognitive-tool-set.ts";
import type { CognitiveToolName } from "../../../src/tools/index.ts";

type Plan = (stepNumber: number) => {
  activeTools?: CognitiveToolName[];
  toolChoice?: "auto" | "required" | { type: "tool"; toolName: CognitiveToolName };
};

async function run(
  userText: string | ModelMessage[],
  plan: Plan = () => ({}),
  tools: CognitiveToolSet = cognitiveToolSet(),
) {
  const messages: ModelMessage[] =
    typeof userText === "string" ? [{ role: "user", content: userText }] : userText;
  return generateText({
    model: createScriptedModel("auto"),
    instructions: "You are the Cognitive Reasoner.",
    messages,
    tools,
    prepareStep: ({ stepNumber }) => plan(stepNumber),
    stopWhen: isStepCount(10),
    maxRetries: 0,
  });
}

type RunResult = Awaited<ReturnType<typeof run>>;

function toolSequence(result: RunResult): string[] {
  return result.steps.flatMap((step) => step.toolCalls.map((call) => call.toolName));
}

function toolErrors(result: RunResult): unknown[] {
  return result.steps.flatMap((step) => step.content.filter((part) => part.type === "tool-error"));
}

const evaluation: Plan = (stepNumber) => {
  const narrowed: CognitiveToolName[][] = [["critique"], ["debate"], ["reflect"]];
  return { activeTools: narrowed[stepNumber] ?? [...cognitiveToolOrder] };
};

describe("scripted auto mode through generateText", () => {
  it("follows tools narrowed step by step, then answers with every result", async () => {
    const result = await run("Please evaluate my plan to move billing onto a queue.", evaluation);

    assert.deepEqual(toolSequence(result), ["critique", "debate", "reflect"]);
    assert.equal(result.steps.length, 4);
    assert.deepEqual(toolErrors(result), []);
    assert.match(
      result.text,
      /You asked: "Please evaluate my plan to move billing onto a queue\."/,
    );
    assert.match(result.text, /1\. \*\*critique\*\*: 🔍 Critique: Please evaluate my plan/);
    assert.match(result.text, /2\. \*\*debate\*\*: ⚖️ Debate: Please evaluate my plan/);
    assert.match(result.text, /3\. \*\*reflect\*\*: 🪞 Reflection: Please evaluate my plan/);
    assert.equal(result.finishReason, "stop");
  });

  it("fills each call's arguments from the request and the earlier results of the turn", async () => {
    const result = await run("Please evaluate my plan.", evaluation);
    const inputs = result.steps.flatMap((step) =>
      step.toolCalls.map((call): unknown => call.input),
    );

    assert.deepEqual(inputs[0], {
      subject: "Please evaluate my plan.",
      analysis:
        'Critique of the request "Please evaluate my plan.". It is the first step of this turn. The scripted model writes this text deterministically from the conversation, so the same conversation always produces the same step.',
    });
    assert.match(
      JSON.stringify(inputs[2]),
      /earlier steps of this turn: 🔍 Critique: Please evaluate my plan\.; ⚖️ Debate: Please evaluate my plan\./,
    );
  });

  it("gives the same steps, ids, texts and token counts on every run", async () => {
    const first = await run("Please evaluate my plan.", evaluation);
    const second = await run("Please evaluate my plan.", evaluation);

    const ids = (result: RunResult) =>
      result.steps.flatMap((step) => step.toolCalls.map((call) => call.toolCallId));
    assert.deepEqual(ids(first), ["call-1-1", "call-1-2", "call-1-3"]);
    assert.deepEqual(ids(second), ids(first));
    assert.equal(second.text, first.text);
    assert.deepEqual(second.usage, first.usage);
    assert.ok((first.usage.inputTokens ?? 0) > 0);
    assert.ok((first.usage.outputTokens ?? 0) > 0);
  });

  it("answers directly when many tools are offered and none is named", async () => {
    const result = await run("What is the capital of France?");

    assert.deepEqual(toolSequence(result), []);
    assert.equal(result.steps.length, 1);
    assert.match(result.text, /You asked: "What is the capital of France\?"/);
    assert.match(result.text, /think, reflect, critique, debate, brainstorm, compare/);
  });

  for (const [message, expected] of [
    ["Can you brainstorm names for a coffee shop?", "brainstorm"],
    ["I would like some brainstorming on names for a coffee shop.", "brainstorm"],
    ["Give me a comparison of PostgreSQL and MySQL.", "compare"],
    ["Please CRITIQUE this opening paragraph.", "critique"],
  ] as const) {
    it(`calls the tool the user names once, then answers: "${message}"`, async () => {
      const result = await run(message);

      assert.deepEqual(toolSequence(result), [expected]);
      assert.equal(result.steps.length, 2);
      assert.deepEqual(toolErrors(result), []);
      assert.match(result.text, new RegExp(`1\\. \\*\\*${expected}\\*\\*`));
    });
  }

  it("calls tools named together in the order the message names them", async () => {
    const result = await run("Compare the two offers, then critique the better one.");

    assert.deepEqual(toolSequence(result), ["compare", "critique"]);
  });

  it("does not call the same tool again in a turn after it failed", async () => {
    const tools = cognitiveToolSet({
      critique: () => {
        throw new Error("critique backend unavailable");
      },
    });
    const result = await run("Review this.", () => ({ activeTools: ["critique"] }), tools);

    assert.deepEqual(toolSequence(result), ["critique"]);
    assert.equal(result.steps.length, 2);
    assert.match(result.text, /\*\*critique\*\*: critique failed: critique backend unavailable/);
  });

  it("after a refusal, calls the tool the refusal says is expected", async () => {
    const tools = cognitiveToolSet({
      debate: () => {
        throw new Error(
          'Tool "debate" refused: "debate" is not allowed now: sequence of "EvaluationMode" expects critique at position 1',
        );
      },
    });
    const result = await run(
      "Let us debate whether to rewrite it.",
      () => ({ activeTools: ["debate", "critique", "reflect"] }),
      tools,
    );

    assert.deepEqual(toolSequence(result), ["debate", "critique"]);
    assert.match(result.text, /1\. \*\*debate\*\*: debate failed: .*refused/);
    assert.match(result.text, /2\. \*\*critique\*\*: 🔍 Critique: Let us debate/);
  });

  it("reads a refusal returned as a plain JSON result as well", async () => {
    const tools = cognitiveToolSet({
      debate: () => ({
        refused: true,
        reason: '"debate" is not allowed now: sequence of "EvaluationMode" expects critique',
      }),
    });
    const result = await run(
      "Let us debate whether to rewrite it.",
      () => ({ activeTools: ["debate", "critique", "reflect"] }),
      tools,
    );

    assert.deepEqual(toolSequence(result), ["debate", "critique"]);
  });

  it("does not take a tool's own result quoting the user for a refusal", async () => {
    const steps: CognitiveToolName[][] = [["think"], ["critique"]];
    const result = await run("Think, then critique: pets are not allowed here.", (stepNumber) => ({
      activeTools: steps[stepNumber] ?? [...cognitiveToolOrder],
    }));

    assert.deepEqual(toolSequence(result), ["think", "critique"]);
    assert.equal(result.steps.length, 3);
  });

  it("calls the tool a tool choice forces, even among many", async () => {
    const result = await run("Hello there.", (stepNumber) =>
      stepNumber === 0 ? { toolChoice: { type: "tool", toolName: "think" } } : {},
    );

    assert.deepEqual(toolSequence(result), ["think"]);
  });

  it("with a required tool choice, calls the first offered tool not yet called", async () => {
    const result = await run("Hello there.", (stepNumber) =>
      stepNumber < 2 ? { toolChoice: "required" } : {},
    );

    assert.deepEqual(toolSequence(result), ["think", "reflect"]);
  });

  it("starts a new turn after a new user message, calling narrowed tools again", async () => {
    const first = await run("Please evaluate my plan.", evaluation);
    const history: ModelMessage[] = [
      { role: "user", content: "Please evaluate my plan." },
      ...first.responseMessages,
      { role: "user", content: "And now my second plan?" },
    ];
    const second = await run(history, evaluation);

    assert.deepEqual(toolSequence(second), ["critique", "debate", "reflect"]);
    assert.deepEqual(
      second.steps.map((step) => step.toolCalls[0]?.toolCallId),
      ["call-2-1", "call-2-2", "call-2-3", undefined],
    );
    assert.match(second.text, /You asked: "And now my second plan\?"/);
  });
});

describe("scripted auto mode, single calls", () => {
  const model = createScriptedModel("auto");
  const critique = {
    type: "function" as const,
    name: "critique",
    inputSchema: {
      type: "object" as const,
      properties: { subject: { type: "string" as const }, analysis: { type: "string" as const } },
      required: ["subject", "analysis"],
    },
  };
  const user = (text: string): LanguageModelV4Prompt[number] => ({
    role: "user",
    content: [{ type: "text", text }],
  });

  it("greets when the prompt has no user message, even with one tool offered", async () => {
    const result = await model.doGenerate({
      prompt: [{ role: "system", content: "Be helpful." }],
      tools: [critique],
    });

    assert.equal(result.content.length, 1);
    assert.equal(result.content[0]?.type, "text");
    assert.match(JSON.stringify(result.content[0]), /Hello! I am the scripted assistant/);
  });

  it("answers instead of retrying a forced tool that failed this turn", async () => {
    const options: LanguageModelV4CallOptions = {
      prompt: [
        user("Review it."),
        {
          role: "assistant",
          content: [{ type: "tool-call", toolCallId: "call-1-1", toolName: "critique", input: {} }],
        },
        {
          role: "tool",
          content: [
            {
              type: "tool-result",
              toolCallId: "call-1-1",
              toolName: "critique",
              output: { type: "error-text", value: "boom" },
            },
          ],
        },
      ],
      tools: [critique],
      toolChoice: { type: "tool", toolName: "critique" },
    };
    const result = await model.doGenerate(options);

    assert.deepEqual(
      result.content.map((part) => part.type),
      ["text"],
    );
    assert.equal(result.finishReason.unified, "stop");
  });

  it("never calls a tool when the tool choice is none", async () => {
    const result = await model.doGenerate({
      prompt: [user("Please critique this.")],
      tools: [critique],
      toolChoice: { type: "none" },
    });

    assert.deepEqual(
      result.content.map((part) => part.type),
      ["text"],
    );
  });

  it("answers JSON built from the schema when a JSON response format is asked for", async () => {
    const result = await model.doGenerate({
      prompt: [user("Summarise the meeting.")],
      responseFormat: {
        type: "json",
        schema: {
          type: "object",
          properties: { title: { type: "string" }, topic: { type: "string" } },
          required: ["topic"],
        },
      },
    });
    const text = result.content[0]?.type === "text" ? result.content[0].text : "";

    assert.deepEqual(JSON.parse(text), { topic: "Summarise the meeting." });
  });

  it("counts a token per four characters of prompt and output, rounded up", async () => {
    const result = await model.doGenerate({ prompt: [user("abcdefghij")] });
    const text = result.content[0]?.type === "text" ? result.content[0].text : "";

    assert.equal(result.usage.inputTokens.total, 3);
    assert.equal(result.usage.outputTokens.total, Math.ceil(text.length / 4));
  });
});
