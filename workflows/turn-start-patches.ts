import { patched } from "@temporalio/workflow";
import { STREAMING_PATCH } from "./run-turn.ts";
import { PUBLISH_GUARD_PATCH } from "./session-stream.ts";
import { MODEL_OPTIONS_QUERY_PATCH, MODEL_STREAM_TAIL_PATCH } from "./streaming-model.ts";
import { CHANGED_ATTRIBUTES_PATCH, MID_TURN_PATCH } from "./visibility.ts";

/** Sessions recorded before this asked these patches where the turn first needs them. */
const TURN_START_PATCHES = "turn-start-patches";

/**
 * Asks, before a turn's availability check (a local activity), the patches the turn asks about
 * between that check and its first model call.
 *
 * Why: the workflow task that runs the local activity can end before the turn goes on (a
 * signal-started turn with a query arriving meanwhile does it), so the live run records these
 * markers in the next workflow task; a replay resolves the local activity and goes on within
 * the first task, where `patched()` sees no marker, and the marker met later fails the replay
 * (TMPRL1100): a new worker could not continue the session. Asked before the local activity,
 * the markers land in the same task live and on replay. Behind its own patch: histories
 * recorded before keep their markers' order (core matches patch markers in order).
 */
export function askTurnStartPatches(): void {
  if (!patched(TURN_START_PATCHES)) return;
  patched(MID_TURN_PATCH);
  patched(STREAMING_PATCH);
  patched(PUBLISH_GUARD_PATCH);
  // Asked last: histories recorded before them keep the markers above in their order. The tail
  // patch is asked where its call asks it: only in sessions whose calls ask for their options.
  if (patched(MODEL_OPTIONS_QUERY_PATCH)) patched(MODEL_STREAM_TAIL_PATCH);
  // Asked here so a session that was running when it was deployed records it before the check.
  patched(CHANGED_ATTRIBUTES_PATCH);
}
