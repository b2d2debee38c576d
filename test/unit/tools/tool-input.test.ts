import assert from "node:assert/strict";
import { describe, it } from "node:test";
import {
  brainstormTool,
  compareTool,
  critiqueTool,
  debateTool,
  parseToolInput,
  reflectTool,
  searchTool,
  summarizeTool,
  thinkTool,
  ToolInputError,
} from "../../../src/tools/index.ts";
import type { ToolDefinition } from "../../../src/tools/index.ts";

interface SchemaCase {
  tool: ToolDefinition;
  valid: Record<string, unknown>;
  required: string[];
  allowed: string;
}

const cases: SchemaCase[] = [
  {
    tool: thinkTool,
    valid: { topic: "Plan the migration", reasoning: "1. Inventory tables." },
    required: ["topic", "reasoning"],
    allowed: '"topic", "reasoning"',
  },
  {
    tool: reflectTool,
    valid: { topic: "Failed deploy", reflection: "What happened: the build broke." },
    required: ["topic", "reflection"],
    allowed: '"topic", "reflection"',
  },
  {
    tool: critiqueTool,
    valid: { subject: "Login form", analysis: "Understanding: a form." },
    required: ["subject", "analysis"],
    allowed: '"subject", "analysis"',
  },
  {
    tool: debateTool,
    valid: { topic: "Monorepo or polyrepo", perspectives: "Introduction: both work." },
    required: ["topic", "perspectives"],
    allowed: '"topic", "perspectives"',
  },
  {
    tool: brainstormTool,
    valid: { challenge: "Reduce churn", ideas: "Problem framing: users leave." },
    required: ["challenge", "ideas"],
    allowed: '"challenge", "ideas"',
  },
  {
    tool: compareTool,
    valid: { topic: "SQLite vs Postgres", comparison: "| criterion | SQLite | Postgres |" },
    required: ["topic", "comparison"],
    allowed: '"topic", "comparison"',
  },
  {
    tool: summarizeTool,
    valid: { text: "A long report.", focus: "decisions" },
    required: ["text"],
    allowed: '"text", "focus"',
  },
  {
    tool: searchTool,
    valid: { query: "temporal continue-as-new", limit: 3 },
    required: ["query"],
    allowed: '"query", "limit"',
  },
];

const invalidStrings: [label: string, value: unknown][] = [
  ["empty", ""],
  ["whitespace only", "  \n\t "],
  ["a number", 42],
  ["null", null],
];

function assertRejects(
  tool: ToolDefinition,
  input: unknown,
  message: string,
  issues: { path: string; message: string }[],
): void {
  assert.throws(
    () => parseToolInput(tool, input),
    (error: unknown) => {
      assert.ok(error instanceof ToolInputError);
      assert.equal(error.name, "ToolInputError");
      assert.equal(error.toolName, tool.name);
      assert.equal(error.message, message);
      assert.deepEqual(error.issues, issues);
      return true;
    },
  );
}

for (const { tool, valid, required, allowed } of cases) {
  describe(`${tool.name} input`, () => {
    it("accepts a valid input unchanged", () => {
      assert.deepEqual(parseToolInput(tool, valid), valid);
    });

    it("trims surrounding whitespace from every string field", () => {
      const padded = Object.fromEntries(
        Object.entries(valid).map(([key, value]) => [
          key,
          typeof value === "string" ? `  ${value}\n ` : value,
        ]),
      );
      assert.deepEqual(parseToolInput(tool, padded), valid);
    });

    for (const field of required) {
      it(`rejects a missing "${field}" and names it`, () => {
        const { [field]: _omitted, ...rest } = valid;
        assertRejects(tool, rest, `${tool.name}: "${field}" must be a non-empty string`, [
          { path: field, message: "must be a non-empty string" },
        ]);
      });

      for (const [label, value] of invalidStrings) {
        it(`rejects "${field}" when it is ${label}`, () => {
          assertRejects(
            tool,
            { ...valid, [field]: value },
            `${tool.name}: "${field}" must be a non-empty string`,
            [{ path: field, message: "must be a non-empty string" }],
          );
        });
      }
    }

    it("reports every invalid field at once", () => {
      const empty = Object.fromEntries(required.map((field) => [field, ""]));
      const expected = required.map((field) => `"${field}" must be a non-empty string`);
      assertRejects(
        tool,
        { ...valid, ...empty },
        `${tool.name}: ${expected.join("; ")}`,
        required.map((field) => ({ path: field, message: "must be a non-empty string" })),
      );
    });

    it("rejects unknown fields and lists the allowed ones", () => {
      const message = `unknown field "extra"; allowed fields are ${allowed}`;
      assertRejects(tool, { ...valid, extra: "x" }, `${tool.name}: ${message}`, [
        { path: "", message },
      ]);
    });

    for (const input of ["just text", null, ["a"]]) {
      it(`rejects ${JSON.stringify(input)} as not an object`, () => {
        const message = `input must be a JSON object with the fields ${allowed}`;
        assertRejects(tool, input, `${tool.name}: ${message}`, [{ path: "", message }]);
      });
    }
  });
}

describe("summarize focus", () => {
  it("accepts an input without focus", () => {
    assert.deepEqual(parseToolInput(summarizeTool, { text: "Report." }), { text: "Report." });
  });

  it("rejects a focus that is present but blank", () => {
    assertRejects(
      summarizeTool,
      { text: "Report.", focus: " " },
      'summarize: "focus" must be a non-empty string',
      [{ path: "focus", message: "must be a non-empty string" }],
    );
  });
});

describe("search limit", () => {
  it("defaults limit to 8", () => {
    assert.deepEqual(parseToolInput(searchTool, { query: "q" }), { query: "q", limit: 8 });
  });

  for (const limit of [1, 25]) {
    it(`accepts limit ${limit}`, () => {
      assert.deepEqual(parseToolInput(searchTool, { query: "q", limit }), { query: "q", limit });
    });
  }

  for (const limit of [0, 26, -3, 2.5, "8", null, Number.NaN]) {
    it(`rejects limit ${String(limit)}`, () => {
      assertRejects(
        searchTool,
        { query: "q", limit },
        'search: "limit" must be a whole number from 1 to 25',
        [{ path: "limit", message: "must be a whole number from 1 to 25" }],
      );
    });
  }
});
