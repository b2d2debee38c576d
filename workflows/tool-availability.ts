import { isCancellation, patched, proxyLocalActivities } from "@temporalio/workflow";
import type { ToolActivities } from "../activities/tool-types.ts";

/** Sessions recorded before tools' availability was checked replay without the check. */
const AVAILABILITY_PATCH = "tool-availability";

const { checkToolAvailability } = proxyLocalActivities<ToolActivities>({
  startToCloseTimeout: "10 seconds",
  retry: { maximumAttempts: 3, initialInterval: "200 milliseconds" },
});

/**
 * The agent tools the worker running this turn cannot run (name → reason), or undefined when
 * unknown (a history from before the check, or a check that failed: availability then stays as
 * last reported). A local activity: one marker event per turn, and its answer is in history, so
 * replay sees the same decision even on a worker configured differently.
 */
export async function reportedUnavailableTools(
  tools: readonly string[],
): Promise<Record<string, string> | undefined> {
  if (!patched(AVAILABILITY_PATCH)) return undefined;
  try {
    return (await checkToolAvailability({ tools: [...tools] })).unavailable;
  } catch (error) {
    if (isCancellation(error)) throw error;
    return undefined;
  }
}
