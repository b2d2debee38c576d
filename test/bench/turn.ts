import { performance } from "node:perf_hooks";
import { workflowIdFor } from "../../src/session/index.ts";
import { shippedAgent } from "../support/shipped-agents.ts";
import { uniqueId } from "../support/temporal-env.ts";
import type { BenchContext } from "./support/bench-context.ts";
import { inProcessAgent } from "./support/in-process-agent.ts";
import type { BenchOutcome } from "./support/outcome.ts";
import { allRunHistories, totals } from "./support/session-history.ts";
import { median, percentile, ratio, round } from "./support/stats.ts";

/** Triggers EvaluationMode: critique → debate → reflect, four model calls and three tools. */
export const evaluationMessage = "Please evaluate this argument: remote work improves productivity";
const expectedTools = ["critique", "debate", "reflect"];
const warmUp = 3;

export interface TurnBenchResult {
  iterations: number;
  durableMedianMs: number;
  durableP95Ms: number;
  baselineMedianMs: number;
  baselineP95Ms: number;
  ratioToBaseline: number;
  historyEventsPerTurn: number;
  historyBytesPerTurn: number;
  historyEventsFirstTurn: number;
  historyBytesFirstTurn: number;
  /** JSON size of the messages one such turn adds to the conversation (in process, turn 2). */
  conversationBytesPerTurn: number;
  /** History bytes per byte of conversation: what durability stores beyond the messages. */
  historyBytesPerConversationByte: number;
}

function checkTools(side: string, toolCalls: readonly string[]): void {
  if (toolCalls.join() !== expectedTools.join())
    throw new Error(
      `${side} turn called [${toolCalls.join(", ")}], not ${expectedTools.join(" → ")}`,
    );
}

/**
 * One evaluation turn of the shipped cognitive-reasoner, each in a fresh session: durably (update
 * with start on the dev server, a worker in this process) against the AI SDK alone in process.
 */
export async function runTurnBenchmark(
  context: BenchContext,
): Promise<BenchOutcome<TurnBenchResult>> {
  const template = shippedAgent("cognitive-reasoner");
  const iterations = context.settings.turnIterations;

  const agent = inProcessAgent(template);
  const baseline: number[] = [];
  for (let index = 0; index < warmUp + iterations; index++) {
    const start = performance.now();
    const turn = await agent.newSession().runTurn(evaluationMessage);
    if (index >= warmUp) baseline.push(performance.now() - start);
    checkTools("in-process", turn.toolCalls);
  }
  const twoTurns = agent.newSession();
  await twoTurns.runTurn(evaluationMessage);
  const conversationBytesPerTurn = (await twoTurns.runTurn(evaluationMessage)).messageBytes;

  const env = await context.env();
  const durable: number[] = [];
  let lastSession = "";
  for (let index = 0; index < warmUp + iterations; index++) {
    lastSession = uniqueId("bench-turn");
    const start = performance.now();
    const result = await env.sessions.sendWithStart(
      { template, sessionId: lastSession },
      evaluationMessage,
      "m1",
    );
    if (index >= warmUp) durable.push(performance.now() - start);
    checkTools(
      "durable",
      result.toolCalls.map((call) => call.toolName),
    );
    if (index > 0 && index % 10 === 0) context.progress(`turn: ${index}/${warmUp + iterations}`);
  }

  // History per turn: the last session's first turn (with the session's start), then a second.
  const workflowId = workflowIdFor(lastSession);
  const first = totals(await allRunHistories(env.client, workflowId));
  checkTools(
    "durable",
    (await env.sessions.send(lastSession, evaluationMessage, "m2")).toolCalls.map(
      (call) => call.toolName,
    ),
  );
  const second = totals(await allRunHistories(env.client, workflowId));

  const result: TurnBenchResult = {
    iterations,
    durableMedianMs: round(median(durable), 1),
    durableP95Ms: round(percentile(durable, 95), 1),
    baselineMedianMs: round(median(baseline), 2),
    baselineP95Ms: round(percentile(baseline, 95), 2),
    ratioToBaseline: ratio(median(durable), median(baseline)),
    historyEventsPerTurn: second.events - first.events,
    historyBytesPerTurn: second.bytes - first.bytes,
    historyEventsFirstTurn: first.events,
    historyBytesFirstTurn: first.bytes,
    conversationBytesPerTurn,
    historyBytesPerConversationByte: ratio(second.bytes - first.bytes, conversationBytesPerTurn),
  };
  return {
    result,
    summary: [
      {
        benchmark: "turn",
        figure: `${result.durableMedianMs} ms median, ${result.durableP95Ms} ms p95 per turn (durable)`,
        baseline: `${result.baselineMedianMs} ms median, ${result.baselineP95Ms} ms p95 (AI SDK in process)`,
        ratio: result.ratioToBaseline,
      },
      {
        benchmark: "turn history",
        figure: `${result.historyEventsPerTurn} events, ${result.historyBytesPerTurn} bytes per turn`,
        baseline: `${result.conversationBytesPerTurn} bytes of messages the turn adds (JSON)`,
        ratio: result.historyBytesPerConversationByte,
      },
    ],
  };
}
