import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { describeEvent } from "../../../src/cli/event-lines.ts";
import type { OrchestrationEvent } from "../../../src/orchestration/index.ts";

const line = (event: OrchestrationEvent): string | undefined =>
  describeEvent({ type: "orchestration", event });

const reason = "unavailable on this worker: not configured: no search provider";

describe("the terminal chat's lines for tools that cannot run", () => {
  it("shows a skipped step with the tool and the reason on one line", () => {
    assert.equal(
      line({ type: "step_skipped", step: "ResearchMode", tool: "search", reason }),
      `  ⊘ step ResearchMode skipped: search is ${reason}`,
    );
  });

  it("shows a release after failures with the count, the error and where control went", () => {
    assert.equal(
      line({
        type: "sequence_released",
        step: "ResearchMode",
        tool: "search",
        cause: "failed",
        failures: 2,
        error: "SearXNG answered HTTP 403",
        to: "DefaultMode",
      }),
      "  ⤺ sequence of ResearchMode released to DefaultMode: search failed 2 times in a row (SearXNG answered HTTP 403)",
    );
    assert.equal(
      line({
        type: "step_entered",
        step: "DefaultMode",
        from: "ResearchMode",
        reason: "released",
        conditions: [],
      }),
      "  → step DefaultMode after ResearchMode was released",
    );
  });

  it("shows a release for an unavailable tool, and availability changes", () => {
    assert.equal(
      line({
        type: "sequence_released",
        step: "ResearchMode",
        tool: "search",
        cause: "unavailable",
        failures: 0,
        error: reason,
        to: "DefaultMode",
      }),
      `  ⤺ sequence of ResearchMode released to DefaultMode: search is ${reason}`,
    );
    assert.equal(
      line({ type: "tool_unavailable", tool: "search", reason: "not configured" }),
      "  ⊘ tool search unavailable: not configured",
    );
    assert.equal(
      line({ type: "tool_available", tool: "search" }),
      "  ✓ tool search available again",
    );
  });

  it("prints each line without a line break inside", () => {
    for (const event of [
      { type: "step_skipped", step: "S", tool: "search", reason },
      { type: "tool_available", tool: "search" },
    ] satisfies OrchestrationEvent[]) {
      assert.ok(!(line(event) ?? "\n").includes("\n"));
    }
  });
});
