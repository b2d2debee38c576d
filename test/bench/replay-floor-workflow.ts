/**
 * The replay benchmark's floor: a session's shape with none of its work. Each turn is an update
 * whose message the loop takes, a local activity (like the turn's tool-availability check), one
 * activity (like the model call), the answer, and an idle wait with a timer. Replaying its
 * history measures what the SDK itself costs per turn and per workflow task. Workflow code:
 * it imports only @temporalio/workflow.
 */
import {
  allHandlersFinished,
  condition,
  defineUpdate,
  proxyActivities,
  proxyLocalActivities,
  setHandler,
} from "@temporalio/workflow";

export interface FloorActivities {
  answer(text: string): Promise<string>;
  check(): Promise<string>;
}

export const floorTurn = defineUpdate<string, [string]>("turn");

const { answer } = proxyActivities<FloorActivities>({ startToCloseTimeout: "10 seconds" });
const { check } = proxyLocalActivities<FloorActivities>({ startToCloseTimeout: "10 seconds" });

export async function replayFloorSession(turns: number): Promise<number> {
  const pending: string[] = [];
  const answers = new Map<string, string>();
  setHandler(floorTurn, async (text) => {
    pending.push(text);
    await condition(() => answers.has(text));
    return answers.get(text) ?? "";
  });
  for (let turn = 0; turn < turns; turn++) {
    await condition(() => pending.length > 0, "24 hours");
    const text = pending.shift() ?? "";
    await check();
    answers.set(text, await answer(text));
  }
  await condition(allHandlersFinished);
  return turns;
}
