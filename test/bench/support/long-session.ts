import { performance } from "node:perf_hooks";
import type { TurnResult } from "../../../src/session/index.ts";
import { workflowIdFor } from "../../../src/session/index.ts";
import { shippedAgent } from "../../support/shipped-agents.ts";
import { uniqueId } from "../../support/temporal-env.ts";
import type { BenchContext, LongSession } from "./bench-context.ts";

/** A short message the cognitive reasoner answers without tools (DefaultMode, one model call). */
export const shortMessage = (turn: number): string => `Short note ${turn}.`;

/**
 * Drives one cognitive-reasoner session through `turns` short turns, one after another
 * (update-with-start, then updates), calling `afterTurn` after each; prints progress.
 */
export async function driveLongSession(
  context: BenchContext,
  label: string,
  turns: number,
  afterTurn: (turn: number, result: TurnResult, ms: number) => Promise<void> = async () => {},
): Promise<LongSession> {
  const env = await context.env();
  const template = shippedAgent("cognitive-reasoner");
  const sessionId = uniqueId(`bench-${turns}-turns`);
  const every = Math.max(10, Math.ceil(turns / 10 / 10) * 10);
  for (let turn = 1; turn <= turns; turn++) {
    const start = performance.now();
    const result =
      turn === 1
        ? await env.sessions.sendWithStart({ template, sessionId }, shortMessage(turn), "m1")
        : await env.sessions.send(sessionId, shortMessage(turn), `m${turn}`);
    const ms = performance.now() - start;
    if (result.error !== undefined)
      throw new Error(`${label}: turn ${turn} failed: ${result.error}`);
    await afterTurn(turn, result, ms);
    if (turn % every === 0 || turn === turns) context.progress(`${label}: turn ${turn}/${turns}`);
  }
  return { workflowId: workflowIdFor(sessionId), turns };
}
