import assert from "node:assert/strict";
import { describe, it } from "node:test";
import {
  cognitiveToolNames,
  formatCognitiveContent,
  isCognitiveToolName,
  normaliseWhitespace,
  runBrainstorm,
  runCognitiveTool,
  runCompare,
  runCritique,
  runDebate,
  runReflect,
  runThink,
  ToolInputError,
} from "../../../src/tools/index.ts";
import type { CognitiveToolName, CognitiveToolResult } from "../../../src/tools/index.ts";

interface CognitiveCase {
  name: CognitiveToolName;
  input: Record<string, string>;
  run: (input: never) => CognitiveToolResult;
  expected: CognitiveToolResult;
}

const cases: CognitiveCase[] = [
  {
    name: "think",
    input: { topic: "Cache invalidation", reasoning: "1. Keys expire.\n2. Writes purge." },
    run: runThink,
    expected: {
      type: "think_result",
      content: "## 🧠 Thinking: Cache invalidation\n\n1. Keys expire.\n2. Writes purge.",
    },
  },
  {
    name: "reflect",
    input: { topic: "Flaky test", reflection: "**What happened** It timed out." },
    run: runReflect,
    expected: {
      type: "reflect_result",
      content: "## 🪞 Reflection: Flaky test\n\n**What happened** It timed out.",
    },
  },
  {
    name: "critique",
    input: { subject: "README", analysis: "**Strengths** Short." },
    run: runCritique,
    expected: {
      type: "critique_result",
      content: "## 🔍 Critique: README\n\n**Strengths** Short.",
    },
  },
  {
    name: "debate",
    input: { topic: "Tabs vs spaces", perspectives: "**Introduction** Old question." },
    run: runDebate,
    expected: {
      type: "debate_result",
      content: "## ⚖️ Debate: Tabs vs spaces\n\n**Introduction** Old question.",
    },
  },
  {
    name: "brainstorm",
    input: { challenge: "Onboarding", ideas: "- Guided tour\n- Sample data" },
    run: runBrainstorm,
    expected: {
      type: "brainstorm_result",
      content: "## 💡 Brainstorm: Onboarding\n\n- Guided tour\n- Sample data",
    },
  },
  {
    name: "compare",
    input: { topic: "A vs B", comparison: "| | A | B |\n|---|---|---|\n| cost | low | high |" },
    run: runCompare,
    expected: {
      type: "compare_result",
      content: "## 📊 Comparison: A vs B\n\n| | A | B |\n|---|---|---|\n| cost | low | high |",
    },
  },
];

describe("cognitive tools", () => {
  it("cover exactly the six cognitive tools", () => {
    assert.deepEqual(
      cases.map((c) => c.name),
      [...cognitiveToolNames],
    );
  });

  for (const { name, input, run, expected } of cases) {
    it(`${name} returns ${expected.type} with a heading naming the subject, then the body`, () => {
      assert.deepEqual(runCognitiveTool(name, input), expected);
    });

    it(`${name} gives the same result when called directly with parsed input`, () => {
      assert.deepEqual(run(input as never), expected);
    });

    it(`${name} trims fields and normalises the body's whitespace`, () => {
      const messy = Object.fromEntries(
        Object.entries(input).map(([key, value]) => [key, `\n  ${value}\n\n\n\n`]),
      );
      assert.deepEqual(runCognitiveTool(name, messy), expected);
    });

    it(`${name} rejects raw input with an empty field and names the field`, () => {
      const [subjectField, bodyField] = Object.keys(input);
      assert.ok(subjectField !== undefined && bodyField !== undefined);
      assert.throws(() => runCognitiveTool(name, { ...input, [bodyField]: "" }), {
        name: "ToolInputError",
        message: `${name}: "${bodyField}" must be a non-empty string`,
      });
      assert.throws(
        () => runCognitiveTool(name, { [bodyField]: input[bodyField] }),
        (error: unknown) =>
          error instanceof ToolInputError &&
          error.message === `${name}: "${subjectField}" must be a non-empty string`,
      );
    });
  }

  it("keeps a multi-line subject on the heading line", () => {
    assert.deepEqual(runThink({ topic: "Plan\n  the\tmove", reasoning: "Step one." }), {
      type: "think_result",
      content: "## 🧠 Thinking: Plan the move\n\nStep one.",
    });
  });
});

describe("isCognitiveToolName", () => {
  const table: [name: string, expected: boolean][] = [
    ["think", true],
    ["compare", true],
    ["summarize", false],
    ["search", false],
    ["Think", false],
    ["", false],
  ];
  for (const [name, expected] of table) {
    it(`returns ${String(expected)} for ${JSON.stringify(name)}`, () => {
      assert.equal(isCognitiveToolName(name), expected);
    });
  }
});

describe("normaliseWhitespace", () => {
  const table: [label: string, input: string, expected: string][] = [
    ["trims both ends", "\n\n  body  \n\n", "body"],
    ["keeps a single blank line", "a\n\nb", "a\n\nb"],
    ["collapses two blank lines into one", "a\n\n\nb", "a\n\nb"],
    ["collapses many blank lines into one", "a\n\n\n\n\n\nb", "a\n\nb"],
    ["treats whitespace-only lines as blank", "a\n  \n\t\n \nb", "a\n\nb"],
    ["converts CRLF and CR line breaks", "a\r\n\r\n\r\n\r\nb\rc", "a\n\nb\nc"],
    ["keeps indentation inside the text", "- a\n  - b\n    code", "- a\n  - b\n    code"],
    ["keeps trailing spaces that make a hard line break", "a  \nb", "a  \nb"],
    ["returns an empty string for whitespace", " \n\t\n ", ""],
  ];
  for (const [label, input, expected] of table) {
    it(label, () => {
      assert.equal(normaliseWhitespace(input), expected);
    });
  }
});

describe("formatCognitiveContent", () => {
  it("puts a level-two heading with the title and subject above the normalised body", () => {
    assert.equal(
      formatCognitiveContent("🔍 Critique", "  The\nplan ", "\n\nGood.\n\n\n\nBad.\n"),
      "## 🔍 Critique: The plan\n\nGood.\n\nBad.",
    );
  });
});
