import assert from "node:assert/strict";
import { describe, it } from "node:test";
import {
  buildTimeline,
  type TimelineSources,
  type ToolActivityRun,
} from "../../../src/client/index.ts";
import type { LoggedEvent } from "../../../src/session/index.ts";

const events = (...list: LoggedEvent["event"][]): LoggedEvent[] =>
  list.map((event, offset) => ({ offset, event }));

const noWithheld: TimelineSources["toolDecisions"] = () => [];

const critiqueRun: ToolActivityRun = {
  toolCallId: "c1",
  toolName: "critique",
  input: { subject: "remote work" },
  output: { content: "a critique" },
  scheduledAt: "2026-01-01T00:00:00.000Z",
  closedAt: "2026-01-01T00:00:00.250Z",
  durationMs: 250,
  attempts: 2,
};

describe("buildTimeline", () => {
  it("shows a turn's step entered and why, its model calls with tokens, and tool calls with input, output and duration", () => {
    const timeline = buildTimeline({
      sessionId: "s1",
      events: events(
        { type: "turn_started", messageId: "m1", turn: 1, text: "Please evaluate" },
        {
          type: "orchestration",
          event: {
            type: "step_entered",
            step: "EvaluationMode",
            reason: "conditions",
            conditions: ["message_regex /evaluat/i"],
          },
        },
        { type: "model_step", step: 1, activeStep: "EvaluationMode", offeredTools: ["critique"] },
        {
          type: "token_usage",
          usage: { inputTokens: 10, outputTokens: 5, totalTokens: 15 },
          total: { inputTokens: 10, outputTokens: 5, totalTokens: 15 },
        },
        { type: "tool_started", toolCallId: "c1", toolName: "critique" },
        { type: "tool_finished", toolCallId: "c1", toolName: "critique", status: "ok" },
        { type: "turn_finished", messageId: "m1", turn: 1, text: "Done." },
      ),
      messages: [],
      toolDecisions: noWithheld,
      toolRuns: new Map([["c1", critiqueRun]]),
    });
    assert.equal(timeline.turns.length, 1);
    const turn = timeline.turns[0];
    assert.ok(turn !== undefined);
    assert.equal(turn.status, "finished");
    assert.equal(turn.reply, "Done.");
    assert.deepEqual(
      turn.entries.map((entry) => entry.kind),
      ["orchestration", "model_call", "tool_call"],
    );
    assert.deepEqual(turn.entries[1], {
      kind: "model_call",
      offset: 2,
      step: 1,
      activeStep: "EvaluationMode",
      offeredTools: ["critique"],
      withheldTools: [],
      usage: { inputTokens: 10, outputTokens: 5, totalTokens: 15 },
      totalTokens: 15,
    });
    assert.deepEqual(turn.entries[2], {
      kind: "tool_call",
      offset: 4,
      toolCallId: "c1",
      toolName: "critique",
      status: "ok",
      input: { subject: "remote work" },
      output: { content: "a critique" },
      durationMs: 250,
      attempts: 2,
    });
  });

  it("keeps a refused call with the reason the model was told and its input from the conversation", () => {
    const detail = 'refused: "debate" is not allowed now. Call critique instead.';
    const timeline = buildTimeline({
      sessionId: "s1",
      events: events(
        { type: "turn_started", messageId: "m1", turn: 1, text: "evaluate" },
        {
          type: "orchestration",
          event: {
            type: "tool_refused",
            tool: "debate",
            reason: "not now",
            expected: ["critique"],
          },
        },
        { type: "tool_finished", toolCallId: "d1", toolName: "debate", status: "refused", detail },
      ),
      messages: [
        {
          role: "assistant",
          content: [
            { type: "tool-call", toolCallId: "d1", toolName: "debate", input: { topic: "x" } },
          ],
        },
      ],
      toolDecisions: noWithheld,
      toolRuns: new Map(),
    });
    const call = timeline.turns[0]?.entries.find((entry) => entry.kind === "tool_call");
    assert.deepEqual(call, {
      kind: "tool_call",
      offset: 2,
      toolCallId: "d1",
      toolName: "debate",
      status: "refused",
      detail,
      input: { topic: "x" },
    });
    assert.equal(timeline.turns[0]?.status, "running");
  });

  it("asks for withheld tools with the active step's sequence progress at each model call", () => {
    const asked: unknown[] = [];
    const timeline = buildTimeline({
      sessionId: "s1",
      events: events(
        { type: "turn_started", messageId: "m1", turn: 1, text: "evaluate" },
        {
          type: "orchestration",
          event: { type: "step_entered", step: "E", reason: "conditions", conditions: [] },
        },
        { type: "model_step", step: 1, activeStep: "E", offeredTools: ["critique"] },
        {
          type: "orchestration",
          event: {
            type: "sequence_advanced",
            step: "E",
            tool: "critique",
            position: 1,
            length: 2,
            next: ["debate"],
          },
        },
        { type: "model_step", step: 2, activeStep: "E", offeredTools: ["debate"] },
      ),
      messages: [],
      toolDecisions: (step, context) => {
        asked.push([step, context]);
        return [
          { tool: "critique", allowed: false, reason: "sequence expects debate" },
          { tool: "debate", allowed: false, reason: "offered anyway" },
        ];
      },
      toolRuns: new Map(),
    });
    assert.deepEqual(asked, [
      ["E", { index: 0, completed: false, unavailable: {} }],
      ["E", { index: 1, completed: false, unavailable: {} }],
    ]);
    const second = timeline.turns[0]?.entries.at(-1);
    assert.ok(second?.kind === "model_call");
    // A tool the call was offered is never listed as withheld.
    assert.deepEqual(second.withheldTools, [
      { tool: "critique", reason: "sequence expects debate" },
    ]);
  });

  it("shows session events it does not know as they are, inside the turn or beside the turns", () => {
    const unknown = { type: "tool_availability", step: "E", tools: ["x"] };
    const timeline = buildTimeline({
      sessionId: "s1",
      events: events(
        { type: "continued_as_new", run: 2 },
        { type: "turn_started", messageId: "m1", turn: 1, text: "hi" },
        unknown as unknown as LoggedEvent["event"],
      ),
      messages: [],
      toolDecisions: noWithheld,
      toolRuns: new Map(),
    });
    assert.deepEqual(timeline.events, [
      { offset: 0, type: "continued_as_new", event: { type: "continued_as_new", run: 2 } },
    ]);
    assert.deepEqual(timeline.turns[0]?.entries, [
      { kind: "event", offset: 2, type: "tool_availability", event: unknown },
    ]);
  });
});

describe("buildTimeline and calls of tools the model was not offered", () => {
  it("shows a call of a withheld tool as refused, with why it was withheld and what the model was told", () => {
    const told = "Model tried to call unavailable tool 'debate'. Available tools: critique.";
    const timeline = buildTimeline({
      sessionId: "s1",
      events: events(
        { type: "turn_started", messageId: "m1", turn: 1, text: "evaluate" },
        { type: "model_step", step: 1, activeStep: "E", offeredTools: ["critique"] },
        {
          type: "tool_finished",
          toolCallId: "d1",
          toolName: "debate",
          status: "error",
          detail: told,
        },
      ),
      messages: [],
      toolDecisions: () => [
        { tool: "critique", allowed: true, reason: "expected" },
        {
          tool: "debate",
          allowed: false,
          reason: 'sequence of "E" expects critique at position 1/3',
        },
      ],
      toolRuns: new Map(),
    });
    const call = timeline.turns[0]?.entries.find((entry) => entry.kind === "tool_call");
    assert.ok(call?.kind === "tool_call");
    assert.equal(call.status, "refused");
    assert.equal(
      call.detail,
      `not offered at model call 1: sequence of "E" expects critique at position 1/3 (the model was told: ${told})`,
    );
  });

  it("keeps a failed call of an offered tool as an error", () => {
    const timeline = buildTimeline({
      sessionId: "s1",
      events: events(
        { type: "turn_started", messageId: "m1", turn: 1, text: "search" },
        { type: "model_step", step: 1, activeStep: null, offeredTools: ["search"] },
        { type: "tool_started", toolCallId: "s1", toolName: "search" },
        {
          type: "tool_finished",
          toolCallId: "s1",
          toolName: "search",
          status: "error",
          detail: "down",
        },
      ),
      messages: [],
      toolDecisions: noWithheld,
      toolRuns: new Map(),
    });
    const call = timeline.turns[0]?.entries.find((entry) => entry.kind === "tool_call");
    assert.ok(call?.kind === "tool_call");
    assert.equal(call.status, "error");
    assert.equal(call.detail, "down");
  });
});

describe("buildTimeline and tools the worker cannot run", () => {
  it("passes the tools reported unavailable to the policy, and names a tool held back though allowed", () => {
    const asked: unknown[] = [];
    const timeline = buildTimeline({
      sessionId: "s1",
      events: events(
        { type: "turn_started", messageId: "m1", turn: 1, text: "research" },
        {
          type: "orchestration",
          event: { type: "tool_unavailable", tool: "search", reason: "no SEARXNG_URL" },
        },
        { type: "model_step", step: 1, activeStep: null, offeredTools: ["think"] },
        { type: "orchestration", event: { type: "tool_available", tool: "search" } },
        { type: "model_step", step: 2, activeStep: null, offeredTools: ["think", "search"] },
      ),
      messages: [],
      toolDecisions: (_step, context) => {
        asked.push(context.unavailable);
        return [
          { tool: "think", allowed: true, reason: "no active step" },
          { tool: "search", allowed: false, reason: "unavailable on this worker: no SEARXNG_URL" },
          { tool: "reflect", allowed: true, reason: "no active step" },
        ];
      },
      toolRuns: new Map(),
    });
    assert.deepEqual(asked, [{ search: "no SEARXNG_URL" }, {}]);
    const first = timeline.turns[0]?.entries.find((entry) => entry.kind === "model_call");
    assert.ok(first?.kind === "model_call");
    assert.deepEqual(first.withheldTools, [
      { tool: "search", reason: "unavailable on this worker: no SEARXNG_URL" },
      {
        tool: "reflect",
        reason:
          "not offered at this call: the session held it back (a tool that keeps failing waits for the next message)",
      },
    ]);
  });
});
