/**
 * Counts the promises made while replaying a recorded history, a figure the machine's load does
 * not move: each promise workflow code makes costs a stack trace in the SDK's promise hook, the
 * largest share of a workflow task's CPU. A replay worker runs workflow code in this thread, so
 * an `async_hooks` hook sees its promises (and the replay pipeline's, the same for any workflow
 * code). The first replay loads the bundle; the later ones are the figure.
 *
 *   npm exec -- node test/bench/replay-promises.ts [<history file in test/replay/histories>] [<replays>]
 */
import { createHook } from "node:async_hooks";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { historyFromJSON } from "@temporalio/common/lib/proto-utils.js";
import { DefaultLogger, Runtime, Worker } from "@temporalio/worker";
import { replayHistoriesDir } from "../support/history.ts";
import { sharedBundle } from "../support/temporal-env.ts";

const [file = "evaluation-turn.json", replaysArg = "4"] = process.argv.slice(2);
const replays = Number(replaysArg);
if (!Number.isInteger(replays) || replays < 2) {
  throw new Error(`replays must be an integer of at least 2 (one warm-up), got "${replaysArg}"`);
}
Runtime.install({ logger: new DefaultLogger("WARN") });
const { workflowId, history } = JSON.parse(
  readFileSync(join(replayHistoriesDir, file), "utf8"),
) as { workflowId: string; history: unknown };
const workflowBundle = await sharedBundle();

let promises = 0;
const hook = createHook({
  init(_id, type) {
    if (type === "PROMISE") promises += 1;
  },
});
const counts: number[] = [];
const cpuMs: number[] = [];
for (let round = 0; round < replays; round += 1) {
  promises = 0;
  const before = process.cpuUsage();
  hook.enable();
  await Worker.runReplayHistory({ workflowBundle }, historyFromJSON(history), workflowId);
  hook.disable();
  const used = process.cpuUsage(before);
  counts.push(promises);
  cpuMs.push(Math.round((used.user + used.system) / 100) / 10);
}
console.log(JSON.stringify({ file, promises: counts.slice(1), cpuMs: cpuMs.slice(1) }));
