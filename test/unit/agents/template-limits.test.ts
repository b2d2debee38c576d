import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { parseAgentTemplate, TemplateError } from "../../../src/agents/index.ts";
import { toolCatalogueEntries } from "../../../src/tools/index.ts";

// Every template field is bounded; going over names the field and the limit.

const long = (length: number): string => "a".repeat(length);
const step = (fields: Record<string, unknown> = {}) => ({ name: "Only", ...fields });

const cases: { field: string; template: Record<string, unknown>; issue: RegExp }[] = [
  { field: "name", template: { name: long(101) }, issue: /^name: at most 100 characters/ },
  {
    field: "description",
    template: { description: long(2001) },
    issue: /^description: at most 2000 characters/,
  },
  {
    field: "personality (a string)",
    template: { personality: long(100_001) },
    issue: /^personality: at most 100000 characters/,
  },
  {
    field: "personality (lines, in all)",
    template: { personality: [long(60_000), long(60_000)] },
    issue: /^personality: at most 100000 characters in all/,
  },
  {
    field: "tools",
    template: { tools: Array.from({ length: 201 }, () => "think") },
    issue: /^tools: at most 200 tools/,
  },
  {
    field: "llm.model",
    template: { llm: { provider: "scripted", model: long(101) } },
    issue: /^llm\.model: at most 100 characters/,
  },
  {
    field: "orchestration.steps",
    template: {
      orchestration: { steps: Array.from({ length: 101 }, (_, i) => step({ name: `S${i}` })) },
    },
    issue: /^orchestration\.steps: at most 100 steps/,
  },
  {
    field: "a step's conditions",
    template: {
      orchestration: {
        steps: [
          step({
            conditions: Array.from({ length: 21 }, () => ({
              type: "message_contains",
              value: "x",
            })),
          }),
        ],
      },
    },
    issue: /^orchestration\.steps\[0\]\.conditions: at most 20 conditions/,
  },
  {
    field: "a condition's text",
    template: {
      orchestration: {
        steps: [step({ conditions: [{ type: "message_contains", value: long(1001) }] })],
      },
    },
    issue: /^orchestration\.steps\[0\]\.conditions\[0\]\.value: at most 1000 characters/,
  },
  {
    field: "a sequence",
    template: {
      tools: ["think"],
      orchestration: { steps: [step({ sequence: Array.from({ length: 51 }, () => "think") })] },
    },
    issue: /^orchestration\.steps\[0\]\.sequence: at most 50 positions/,
  },
  {
    field: "a tool policy",
    template: {
      orchestration: {
        steps: [step({ availableTools: { allowed: Array.from({ length: 201 }, () => "*") } })],
      },
    },
    issue: /^orchestration\.steps\[0\]\.availableTools\.allowed: at most 200 tool patterns/,
  },
];

describe("template limits", () => {
  for (const { field, template, issue } of cases) {
    it(`refuses ${field} over its limit, naming the field and the limit`, () => {
      try {
        parseAgentTemplate(
          { id: "limits", name: "Limits", ...template },
          { tools: toolCatalogueEntries },
        );
      } catch (error) {
        assert.ok(error instanceof TemplateError, String(error));
        const lines = error.issues.map((found) => `${found.path}: ${found.message}`);
        assert.ok(
          lines.some((line) => issue.test(line)),
          lines.join("\n"),
        );
        return;
      }
      assert.fail("the template loaded");
    });
  }
});
