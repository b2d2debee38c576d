import { performance } from "node:perf_hooks";

export interface DriveResult {
  elapsedMs: number;
  /** Every turn's latency, in completion order. */
  latencies: number[];
  /** The same split: each session's first turn (where a durable session starts), the others. */
  firstTurnLatencies: number[];
  laterTurnLatencies: number[];
}

/**
 * Runs `sessions` conversations at once, each `turns` turns one after another (a user waits for
 * each answer before the next message); reports progress every tenth of the turns. After a turn
 * fails no new turn starts; once the running ones settle, the first failure is thrown.
 */
export async function driveConcurrently(
  sessions: number,
  turns: number,
  runTurn: (session: number, turn: number) => Promise<void>,
  progress: (done: number, total: number) => void = () => {},
): Promise<DriveResult> {
  const latencies: number[] = [];
  const firstTurnLatencies: number[] = [];
  const laterTurnLatencies: number[] = [];
  const total = sessions * turns;
  const every = Math.max(1, Math.ceil(total / 10));
  const start = performance.now();
  let failed = false;
  const outcomes = await Promise.allSettled(
    Array.from({ length: sessions }, async (_, session) => {
      for (let turn = 1; turn <= turns && !failed; turn++) {
        const started = performance.now();
        try {
          await runTurn(session, turn);
        } catch (error) {
          failed = true;
          throw error;
        }
        const latency = performance.now() - started;
        latencies.push(latency);
        (turn === 1 ? firstTurnLatencies : laterTurnLatencies).push(latency);
        if (latencies.length % every === 0 && latencies.length < total)
          progress(latencies.length, total);
      }
    }),
  );
  const failure = outcomes.find((outcome) => outcome.status === "rejected");
  if (failure !== undefined) throw failure.reason;
  return {
    elapsedMs: performance.now() - start,
    latencies,
    firstTurnLatencies,
    laterTurnLatencies,
  };
}
