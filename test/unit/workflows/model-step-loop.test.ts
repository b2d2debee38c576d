import assert from "node:assert/strict";
import { describe, it } from "node:test";
import type {
  LanguageModelV4CallOptions,
  LanguageModelV4Content,
  LanguageModelV4GenerateResult,
} from "@ai-sdk/provider";
import {
  generateText,
  isStepCount,
  jsonSchema,
  tool,
  type LanguageModelUsage,
  type ModelMessage,
  type ToolSet,
} from "ai";
import { MockLanguageModelV4 } from "ai/test";
import { z } from "zod";
import {
  runModelSteps,
  type FinishedStep,
  type RejectedToolCall,
  type StepPlan,
} from "../../../workflows/model-step-loop.ts";
import { withPreparedSchemas } from "../../../workflows/tool-schemas.ts";

/**
 * The lean loop against `generateText` itself (the oracle, driven as `runModelLoop` drove it
 * before): the same scripted conversation through both must give every model call the same
 * options and end with the same text, messages, tool runs, step reports and errors.
 */

type Answer = LanguageModelV4Content[] | { content: LanguageModelV4Content[]; finish: string };

function result(answer: Answer, index: number): LanguageModelV4GenerateResult {
  const { content, finish } = Array.isArray(answer)
    ? {
        content: answer,
        finish: answer.some((part) => part.type === "tool-call") ? "tool-calls" : "stop",
      }
    : answer;
  return {
    content,
    finishReason: { unified: finish as "stop", raw: finish },
    usage: {
      inputTokens: {
        total: 100 + index,
        noCache: undefined,
        cacheRead: undefined,
        cacheWrite: undefined,
      },
      outputTokens: { total: 10 + index, text: undefined, reasoning: undefined },
    },
    warnings: [],
    ...(index % 2 === 0 ? { response: { id: `resp-${index}` } } : {}),
  };
}

function scriptedModel(answers: readonly Answer[], calls: LanguageModelV4CallOptions[]) {
  let next = 0;
  return new MockLanguageModelV4({
    doGenerate: (options) => {
      calls.push(options);
      const answer = answers[next];
      if (answer === undefined) throw new Error(`the script has no answer for call ${next + 1}`);
      next += 1;
      return Promise.resolve(result(answer, next));
    },
  });
}

const call = (toolCallId: string, toolName: string, input: string): LanguageModelV4Content => ({
  type: "tool-call",
  toolCallId,
  toolName,
  input,
});
const text = (value: string): LanguageModelV4Content => ({ type: "text", text: value });

interface Script {
  answers: Answer[];
  /** The tools each step offers, in order; the last repeats. */
  offered?: string[][];
  toolChoice?: StepPlan["toolChoice"][];
  maxSteps?: number;
  messages?: ModelMessage[];
}

interface Run {
  calls: LanguageModelV4CallOptions[];
  executed: { name: string; input: unknown; toolCallId: string }[];
  steps: {
    usage: LanguageModelUsage;
    responseMessages: ModelMessage[];
    rejected: RejectedToolCall[];
  }[];
  outcome: { text: string; responseMessages: ModelMessage[] } | { error: string };
}

function toolsFor(executed: Run["executed"]): ToolSet {
  const record =
    (name: string) =>
    (input: unknown, { toolCallId }: { toolCallId: string }) => {
      executed.push({ name, input, toolCallId });
      if (name === "explode") return Promise.reject(new Error("explode failed: the disk is full"));
      if (name === "guarded") {
        return Promise.reject(new Error("refused: not in this step. Call search instead."));
      }
      return Promise.resolve(name === "note" ? `noted ${JSON.stringify(input)}` : { name, input });
    };
  return withPreparedSchemas({
    search: tool({
      description: "Searches",
      inputSchema: z.object({ query: z.string().min(1) }),
      execute: record("search"),
    }),
    note: tool({ description: "Notes", inputSchema: z.object({}), execute: record("note") }),
    explode: tool({ description: "Fails", inputSchema: z.object({}), execute: record("explode") }),
    guarded: tool({
      description: "Refused",
      inputSchema: z.object({}),
      execute: record("guarded"),
    }),
    plugin: tool({
      description: "A plug-in's JSON schema",
      inputSchema: jsonSchema({ type: "object", properties: { n: { type: "number" } } }),
      execute: record("plugin"),
    }),
  });
}

const allTools = ["search", "note", "explode", "guarded", "plugin"];

function planner(script: Script, model: MockLanguageModelV4) {
  return (stepNumber: number): StepPlan => {
    const offered = script.offered ?? [allTools];
    const choices = script.toolChoice ?? ["auto"];
    return {
      model,
      activeTools: offered[Math.min(stepNumber, offered.length - 1)] ?? [],
      instructions: `You are step ${stepNumber + 1}.`,
      toolChoice: choices[Math.min(stepNumber, choices.length - 1)] ?? "auto",
    };
  };
}

const history: ModelMessage[] = [
  { role: "user", content: "earlier question" },
  {
    role: "assistant",
    content: [
      { type: "text", text: "" },
      { type: "tool-call", toolCallId: "old-1", toolName: "search", input: { query: "x" } },
      { type: "tool-call", toolCallId: "old-2", toolName: "note", input: {} },
    ],
  },
  {
    role: "tool",
    content: [
      {
        type: "tool-result",
        toolCallId: "old-1",
        toolName: "search",
        output: { type: "json", value: { hits: 1 } },
      },
    ],
  },
  {
    role: "tool",
    content: [
      {
        type: "tool-result",
        toolCallId: "old-2",
        toolName: "note",
        output: { type: "error-text", value: "Error: no" },
      },
    ],
  },
  {
    role: "assistant",
    content: [
      { type: "reasoning", text: "thinking" },
      { type: "text", text: "earlier answer" },
    ],
  },
  {
    role: "user",
    content: [
      { type: "text", text: "the question" },
      { type: "text", text: "" },
    ],
  },
];

async function runLean(script: Script): Promise<Run> {
  const run: Run = { calls: [], executed: [], steps: [], outcome: { error: "not run" } };
  const model = scriptedModel(script.answers, run.calls);
  try {
    run.outcome = await runModelSteps({
      messages: script.messages ?? history,
      tools: toolsFor(run.executed),
      maxSteps: script.maxSteps ?? 5,
      temperature: 0.2,
      maxOutputTokens: 500,
      prepareStep: planner(script, model),
      onStepEnd: (step: FinishedStep) => run.steps.push(step),
    });
  } catch (error) {
    run.outcome = { error: String(error) };
  }
  return run;
}

async function runOracle(script: Script): Promise<Run> {
  const run: Run = { calls: [], executed: [], steps: [], outcome: { error: "not run" } };
  const model = scriptedModel(script.answers, run.calls);
  const plan = planner(script, model);
  try {
    const result = await generateText({
      model,
      messages: script.messages ?? history,
      tools: toolsFor(run.executed),
      stopWhen: isStepCount(script.maxSteps ?? 5),
      maxRetries: 0,
      temperature: 0.2,
      maxOutputTokens: 500,
      prepareStep: ({ stepNumber }) => {
        const step = plan(stepNumber);
        return { ...step, activeTools: [...step.activeTools] };
      },
      onStepEnd: (step) => {
        run.steps.push({
          usage: step.usage,
          responseMessages: step.response.messages,
          rejected: step.content.flatMap((part) =>
            part.type === "tool-error" && typeof part.error === "string"
              ? [{ toolCallId: part.toolCallId, toolName: part.toolName, error: part.error }]
              : [],
          ),
        });
      },
    });
    run.outcome = { text: result.text, responseMessages: result.responseMessages };
  } catch (error) {
    run.outcome = { error: String(error) };
  }
  return run;
}

const scripts: Record<string, Script> = {
  "a plain answer": { answers: [[{ type: "reasoning", text: "hm" }, text("Hello"), text("")]] },
  "a tool call, then the answer": {
    answers: [
      [text("Let me look."), call("c1", "search", '{"query":"temporal"}')],
      [text("Found it.")],
    ],
  },
  "parallel calls, results in the order of the calls": {
    answers: [
      [
        call("c1", "note", "{}"),
        call("c2", "search", '{"query":"a"}'),
        call("c3", "plugin", '{"n":2}'),
      ],
      [text("done")],
    ],
  },
  "a provider's custom part and an empty reasoning part, sent back on the next call": {
    answers: [
      [
        { type: "reasoning", text: "", providerMetadata: { anthropic: { signature: "s1" } } },
        { type: "reasoning", text: "" },
        { type: "custom", kind: "anthropic.compaction", providerMetadata: { anthropic: { n: 1 } } },
        call("c1", "note", "{}"),
      ],
      [text("ok")],
    ],
  },
  "empty input means {}": { answers: [[call("c1", "note", "")], [text("ok")]] },
  "input that is not JSON": { answers: [[call("c1", "search", "{query:")], [text("sorry")]] },
  "input that fails the tool's schema": {
    answers: [[call("c1", "search", '{"query":""}'), call("c2", "search", "42")], [text("sorry")]],
  },
  "a tool not offered this step": {
    offered: [["note"], allTools],
    answers: [[call("c1", "search", '{"query":"q"}'), call("c2", "nosuch", '"x"')], [text("ok")]],
  },
  "no tool offered at all": { offered: [[]], answers: [[call("c1", "note", "{}")], [text("ok")]] },
  "a refused tool": { answers: [[call("c1", "guarded", "{}")], [text("I was refused")]] },
  "a failing tool": { answers: [[call("c1", "explode", "{}")], [text("it failed")]] },
  "maxSteps reached while the model keeps calling tools": {
    maxSteps: 2,
    answers: [[call("c1", "note", "{}")], [call("c2", "note", "{}")], [text("never")]],
  },
  "a required tool the model did not call": { toolChoice: ["required"], answers: [[text("no")]] },
  "a named tool choice, met": {
    toolChoice: [{ type: "tool", toolName: "note" }, "auto"],
    answers: [[call("c1", "note", "{}")], [text("ok")]],
  },
  "tool choice none with a tool call": {
    toolChoice: ["none"],
    answers: [[call("c1", "note", "{}")]],
  },
  "tool calls cut off by the length limit are not run": {
    answers: [{ content: [call("c1", "note", "{}")], finish: "length" }],
  },
  "a conversation with a tool call left without its result": {
    messages: [
      {
        role: "assistant",
        content: [{ type: "tool-call", toolCallId: "x", toolName: "note", input: {} }],
      },
      { role: "user", content: "hi" },
    ],
    answers: [[text("unreached")]],
  },
};

describe("the lean model-step loop matches generateText", () => {
  for (const [name, script] of Object.entries(scripts)) {
    it(`gives the model the same options and ends the same way: ${name}`, async () => {
      const oracle = await runOracle(script);
      const lean = await runLean(script);
      assert.ok(oracle.calls.length > 0 || "error" in oracle.outcome);
      assert.deepStrictEqual(lean.calls, oracle.calls);
      assert.deepStrictEqual(lean.executed, oracle.executed);
      assert.deepStrictEqual(lean.steps, oracle.steps);
      assert.deepStrictEqual(lean.outcome, oracle.outcome);
    });
  }

  it("a required tool the model did not call ends the loop with the AI SDK's error", async () => {
    const lean = await runLean(scripts["a required tool the model did not call"] as Script);
    assert.deepStrictEqual(lean.steps, []);
    assert.match(
      "error" in lean.outcome ? lean.outcome.error : "",
      /^AI_ToolChoiceViolationError: /,
    );
  });
});
