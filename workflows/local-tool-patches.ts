import { patched } from "@temporalio/workflow";
import { isCognitiveToolName } from "../src/tools/index.ts";
import { BOUNDED_HISTORY_PATCH } from "./history-compaction.ts";
import { UPGRADE_PATCH } from "./template-upgrade.ts";
import { APPROVAL_PATCH } from "./tool-approval.ts";

/** Sessions recorded before pure tools ran as local activities replay with `runTool`. */
const LOCAL_TOOLS_PATCH = "local-pure-tools";

/** Sessions recorded before failures were counted replay without counting them. */
export const FAILURE_COUNT_PATCH = "tool-failure-release";

/**
 * Whether this tool call runs as a local activity: a pure tool (the cognitive ones reshape the
 * model's own text, synchronously) needs no round trip through the server, so it runs in the
 * workflow task that decided it: one marker event instead of an activity's three events and a
 * workflow task of its own.
 *
 * Asks, before the first local activity, the patches a turn may ask once one has resolved. Why:
 * a workflow task can end while a local activity runs (a query arriving meanwhile does it), so
 * live the markers of patches asked after it land in the next task, while a replay resolves the
 * local activity and goes on within the same task, where `patched()` sees no marker yet and
 * the later one fails the replay (TMPRL1100; see turn-start-patches.ts). Asked before the local
 * activity, each marker lands in the same task live and on replay.
 */
export function runsAsLocalActivity(toolName: string): boolean {
  if (!isCognitiveToolName(toolName) || !patched(LOCAL_TOOLS_PATCH)) return false;
  patched(FAILURE_COUNT_PATCH);
  patched(APPROVAL_PATCH);
  patched(BOUNDED_HISTORY_PATCH);
  patched(UPGRADE_PATCH);
  return true;
}
