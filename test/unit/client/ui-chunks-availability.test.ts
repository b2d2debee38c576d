import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { TurnChunker } from "../../../src/client/ui-chunks.ts";
import type { OrchestrationEvent } from "../../../src/orchestration/index.ts";

const events: OrchestrationEvent[] = [
  { type: "tool_unavailable", tool: "search", reason: "not configured" },
  {
    type: "step_skipped",
    step: "ResearchMode",
    tool: "search",
    reason: "unavailable on this worker: not configured",
  },
  {
    type: "sequence_released",
    step: "ResearchMode",
    tool: "search",
    cause: "failed",
    failures: 2,
    error: "HTTP 403",
    to: "DefaultMode",
  },
  { type: "tool_available", tool: "search" },
];

describe("the UI message stream and tools that cannot run", () => {
  it("carries skipped steps, releases and availability changes as data-orchestration parts", () => {
    const chunker = new TurnChunker();
    const chunks = events.flatMap((event) =>
      chunker.fromLive({ type: "session", event: { type: "orchestration", event } }),
    );
    assert.deepEqual(
      chunks,
      events.map((data) => ({ type: "data-orchestration", data })),
    );
  });
});
