import assert from "node:assert/strict";
import { describe, it } from "node:test";
import type { ReportedTokenUsage } from "../../../src/orchestration/index.ts";
import { orchestratorFor } from "./build-template.ts";

const rows: {
  title: string;
  usage: ReportedTokenUsage[];
  total: { inputTokens: number; outputTokens: number; totalTokens: number };
}[] = [
  {
    title: "adds each call's usage",
    usage: [
      { inputTokens: 10, outputTokens: 5, totalTokens: 15 },
      { inputTokens: 1, outputTokens: 2, totalTokens: 3 },
    ],
    total: { inputTokens: 11, outputTokens: 7, totalTokens: 18 },
  },
  {
    title: "missing numbers count as 0",
    usage: [{ inputTokens: 10, outputTokens: 5, totalTokens: 15 }, {}],
    total: { inputTokens: 10, outputTokens: 5, totalTokens: 15 },
  },
  {
    title: "NaN, Infinity, negative and null count as 0 and never reset the totals",
    usage: [
      { inputTokens: 10, outputTokens: 5, totalTokens: 15 },
      { inputTokens: Number.NaN, outputTokens: Infinity, totalTokens: -4 },
      { inputTokens: null, outputTokens: null, totalTokens: null },
    ],
    total: { inputTokens: 10, outputTokens: 5, totalTokens: 15 },
  },
  {
    title: "a missing total is the sum of input and output",
    usage: [{ inputTokens: 4, outputTokens: 6 }],
    total: { inputTokens: 4, outputTokens: 6, totalTokens: 10 },
  },
];

describe("token usage (spec §6)", () => {
  for (const row of rows) {
    it(row.title, () => {
      const orchestrator = orchestratorFor({ steps: [] });
      const state = row.usage.reduce(
        (current, usage) => orchestrator.onTokenUsage(current, usage),
        orchestrator.initialState(),
      );
      assert.deepEqual(state.cumulativeTokenUsage, row.total);
    });
  }
});
