import assert from "node:assert/strict";
import { describe, it } from "node:test";
import type { Condition } from "../../../src/orchestration/index.ts";
import { conditionHolds } from "../../../src/orchestration/conditions/evaluate-condition.ts";

type Row = {
  title: string;
  condition: Condition;
  tools?: string[];
  message?: string;
  sequence?: string[][];
  holds: boolean;
};

const rows: Row[] = [
  {
    title: "tool_used holds when the tool was used at any time",
    condition: { type: "tool_used", value: "search" },
    tools: ["search", "think", "think"],
    holds: true,
  },
  {
    title: "tool_used fails when the tool was never used",
    condition: { type: "tool_used", value: "search" },
    tools: ["think"],
    holds: false,
  },
  {
    title: "tool_used with a window sees only the last N events",
    condition: { type: "tool_used", value: "search", window: 2 },
    tools: ["search", "think", "think"],
    holds: false,
  },
  {
    title: "tool_used with a window holds inside it",
    condition: { type: "tool_used", value: "search", window: 3 },
    tools: ["search", "think", "think"],
    holds: true,
  },
  {
    title: "tool_used fails with no tool events",
    condition: { type: "tool_used", value: "search" },
    tools: [],
    holds: false,
  },
  {
    title: "not_recently_used holds when the tool is outside the window",
    condition: { type: "not_recently_used", value: "search", window: 2 },
    tools: ["search", "think", "reflect"],
    holds: true,
  },
  {
    title: "not_recently_used fails when the tool is inside the window",
    condition: { type: "not_recently_used", value: "search", window: 2 },
    tools: ["think", "search"],
    holds: false,
  },
  {
    title: "not_recently_used holds with no tool events",
    condition: { type: "not_recently_used", value: "search", window: 1 },
    tools: [],
    holds: true,
  },
  {
    title: "sequence_match holds when the last events follow the sequence",
    condition: { type: "sequence_match" },
    tools: ["reflect", "critique", "debate"],
    sequence: [["critique"], ["debate"]],
    holds: true,
  },
  {
    title: "sequence_match accepts an alternative at a position",
    condition: { type: "sequence_match" },
    tools: ["think", "debate"],
    sequence: [["search", "think"], ["debate"]],
    holds: true,
  },
  {
    title: "sequence_match fails when the order differs",
    condition: { type: "sequence_match" },
    tools: ["debate", "critique"],
    sequence: [["critique"], ["debate"]],
    holds: false,
  },
  {
    title: "sequence_match fails when a later event breaks the match",
    condition: { type: "sequence_match" },
    tools: ["critique", "debate", "think"],
    sequence: [["critique"], ["debate"]],
    holds: false,
  },
  {
    title: "sequence_match fails with fewer events than positions",
    condition: { type: "sequence_match" },
    tools: ["debate"],
    sequence: [["critique"], ["debate"]],
    holds: false,
  },
  {
    title: "message_contains is case-insensitive by default",
    condition: { type: "message_contains", value: "Research" },
    message: "please RESEARCH this",
    holds: true,
  },
  {
    title: "message_contains honours caseSensitive",
    condition: { type: "message_contains", value: "Research", caseSensitive: true },
    message: "please research this",
    holds: false,
  },
  {
    title: "message_contains fails with no user message",
    condition: { type: "message_contains", value: "x" },
    holds: false,
  },
  {
    title: "message_starts_with matches the beginning, ignoring leading spaces",
    condition: { type: "message_starts_with", value: "/plan" },
    message: "  /PLAN a trip",
    holds: true,
  },
  {
    title: "message_starts_with fails when the text is elsewhere",
    condition: { type: "message_starts_with", value: "plan" },
    message: "a plan",
    holds: false,
  },
  {
    title: "message_starts_with honours caseSensitive",
    condition: { type: "message_starts_with", value: "Plan", caseSensitive: true },
    message: "plan it",
    holds: false,
  },
  {
    title: "message_regex matches with its flags",
    condition: { type: "message_regex", value: "\\bcompare\\b", flags: "i" },
    message: "Compare A and B",
    holds: true,
  },
  {
    title: "message_regex is case-sensitive without the i flag",
    condition: { type: "message_regex", value: "\\bcompare\\b" },
    message: "Compare A and B",
    holds: false,
  },
  {
    title: "message_regex fails with no user message",
    condition: { type: "message_regex", value: "." },
    holds: false,
  },
];

describe("conditions", () => {
  for (const row of rows) {
    it(row.title, () => {
      const context = {
        evidence: { tools: row.tools ?? [], message: row.message },
        sequence: row.sequence,
      };
      assert.equal(conditionHolds(row.condition, context), row.holds);
    });
  }
});
