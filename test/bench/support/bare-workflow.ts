import { condition, defineUpdate, proxyActivities, setHandler } from "@temporalio/workflow";
import type { BareActivities } from "./bare-activities.ts";

/**
 * The floor of durability for the `turn` benchmark: a session-shaped workflow with no
 * orchestration, no streaming and no model. Each turn is an update that runs `activities` no-op
 * activities one after another (a turn's model calls and tools run in sequence too) and answers
 * with the turn's number. Bundled for a worker of its own task queue in the bench process only.
 */
export const bareTurnUpdate = defineUpdate<number, [number]>("bareTurn");

const { noop } = proxyActivities<BareActivities>({ startToCloseTimeout: "1 minute" });

export async function bareSessionWorkflow(): Promise<void> {
  let turns = 0;
  setHandler(bareTurnUpdate, async (activities) => {
    for (let index = 0; index < activities; index++) await noop(index);
    turns++;
    return turns;
  });
  // Open between turns like a session; the benchmark's dev server goes away with it.
  await condition(() => false);
}
