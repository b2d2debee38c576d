import assert from "node:assert/strict";
import { describe, it } from "node:test";
import type { JSONSchema7 } from "@ai-sdk/provider";
import { textDeltas } from "../../../src/llm/scripted/model-output.ts";
import { buildToolInput } from "../../../src/llm/scripted/tool-input.ts";
import { toolsNamedIn } from "../../../src/llm/scripted/tool-mentions.ts";

const tools = ["think", "reflect", "critique", "debate", "brainstorm", "compare", "summarize"];

describe("tool mentions", () => {
  const cases: [string, string[]][] = [
    ["Let's brainstorm.", ["brainstorm"]],
    ["More brainstorming please", ["brainstorm"]],
    ["Two critiques, critiqued and critiquing", ["critique"]],
    ["A comparison of A and B", ["compare"]],
    ["Comparing A and B", ["compare"]],
    ["Time for reflection.", ["reflect"]],
    ["They debated; now summarization.", ["debate", "summarize"]],
    ["I think we should debate", ["think", "debate"]],
    ["debate first, then THINK", ["debate", "think"]],
    ["Rethinking the unthinkable", []],
    ["A critic's reflex is comparative", []],
    ["overthink_mode think-tank", ["think"]],
  ];
  for (const [text, expected] of cases) {
    it(`finds ${JSON.stringify(expected)} in "${text}"`, () => {
      assert.deepEqual(toolsNamedIn(text, tools), expected);
    });
  }
});

describe("tool arguments from a JSON schema", () => {
  const texts = { subject: "the request", body: "a body of sentences" };
  const cases: [string, JSONSchema7, Record<string, unknown>][] = [
    [
      "subject-like and body properties",
      {
        type: "object",
        properties: {
          topic: { type: "string" },
          reasoning: { type: "string" },
          focus: { type: "string" },
        },
        required: ["topic", "reasoning"],
      },
      { topic: "the request", reasoning: "a body of sentences" },
    ],
    [
      "numbers from default, minimum or exclusive minimum",
      {
        type: "object",
        properties: {
          limit: { type: "integer", minimum: 1, default: 8 },
          depth: { type: "integer", minimum: 2 },
          ratio: { type: "number", exclusiveMinimum: 0 },
          count: { type: "number" },
        },
        required: ["limit", "depth", "ratio", "count"],
      },
      { limit: 8, depth: 2, ratio: 1, count: 1 },
    ],
    [
      "enums, consts, booleans, nullable strings, arrays and nested objects",
      {
        type: "object",
        properties: {
          mode: { type: "string", enum: ["fast", "slow"] },
          kind: { const: "note" },
          strict: { type: "boolean" },
          query: { anyOf: [{ type: "null" }, { type: "string" }] },
          tags: { type: "array", items: { type: "string" }, minItems: 2 },
          owner: {
            type: "object",
            properties: { name: { type: "string" } },
            required: ["name"],
          },
          title: { type: "string", maxLength: 3 },
        },
        required: ["mode", "kind", "strict", "query", "tags", "owner", "title"],
      },
      {
        mode: "fast",
        kind: "note",
        strict: false,
        query: "the request",
        tags: ["a body of sentences", "a body of sentences"],
        owner: { name: "a body of sentences" },
        title: "a b",
      },
    ],
  ];
  for (const [name, schema, expected] of cases) {
    it(name, () => {
      assert.deepEqual(buildToolInput(schema, texts), expected);
    });
  }
});

describe("text deltas", () => {
  for (const text of ["", "one", "  leading and trailing  ", "a b c d e f g\n\nh i\tj"]) {
    it(`split ${JSON.stringify(text)} into chunks that join back exactly`, () => {
      const deltas = textDeltas(text);
      assert.equal(deltas.join(""), text);
      assert.ok(deltas.every((delta) => delta !== ""));
    });
  }
});
