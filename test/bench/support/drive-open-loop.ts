import { performance } from "node:perf_hooks";
import { setTimeout as sleep } from "node:timers/promises";
import type { DriveResult } from "./drive-concurrently.ts";

export interface OpenLoopResult extends DriveResult {
  /** How late the latest session started against its schedule (the generator's own lag). */
  maxStartLagMs: number;
}

/**
 * Open-loop load: session i arrives at `i / sessionsPerSecond` seconds whatever the system does
 * (a schedule, not a loop waiting on answers), then sends its `turns` one after another, each
 * once the previous is answered, as a user would. A first turn's latency counts from its
 * scheduled arrival, so a generator that falls behind shows as latency rather than hiding it.
 * After a turn fails no new turn or session starts; once the running ones settle, the first
 * failure is thrown.
 */
export async function driveOpenLoop(
  sessions: number,
  turns: number,
  sessionsPerSecond: number,
  runTurn: (session: number, turn: number) => Promise<void>,
  progress: (done: number, total: number) => void = () => {},
): Promise<OpenLoopResult> {
  if (!(sessionsPerSecond > 0)) throw new Error(`open loop: rate ${sessionsPerSecond} is not > 0`);
  const latencies: number[] = [];
  const firstTurnLatencies: number[] = [];
  const laterTurnLatencies: number[] = [];
  const total = sessions * turns;
  const every = Math.max(1, Math.ceil(total / 10));
  const start = performance.now();
  // An object, so the scheduling loop sees what the sessions set.
  const state = { failed: false };
  let maxStartLagMs = 0;
  const record = (turn: number, latency: number): void => {
    latencies.push(latency);
    (turn === 1 ? firstTurnLatencies : laterTurnLatencies).push(latency);
    if (latencies.length % every === 0 && latencies.length < total)
      progress(latencies.length, total);
  };
  const session = async (index: number, arrival: number): Promise<void> => {
    for (let turn = 1; turn <= turns && !state.failed; turn++) {
      const sent = turn === 1 ? arrival : performance.now();
      try {
        await runTurn(index, turn);
      } catch (error) {
        state.failed = true;
        throw error;
      }
      record(turn, performance.now() - sent);
    }
  };
  const running: Promise<void>[] = [];
  for (let index = 0; index < sessions && !state.failed; index++) {
    const arrival = start + (index * 1000) / sessionsPerSecond;
    const wait = arrival - performance.now();
    if (wait > 0) await sleep(wait);
    maxStartLagMs = Math.max(maxStartLagMs, performance.now() - arrival);
    running.push(session(index, arrival));
  }
  const outcomes = await Promise.allSettled(running);
  const failure = outcomes.find((outcome) => outcome.status === "rejected");
  if (failure !== undefined) throw failure.reason;
  return {
    elapsedMs: performance.now() - start,
    latencies,
    firstTurnLatencies,
    laterTurnLatencies,
    maxStartLagMs,
  };
}
