import { isCancellation, patched, proxyLocalActivities } from "@temporalio/workflow";
import type { PluginToolDefinition } from "../activities/tool-availability.ts";
import type { ToolActivities } from "../activities/tool-types.ts";
import { askTurnStartPatches } from "./turn-start-patches.ts";

/** Sessions recorded before tools' availability was checked replay without the check. */
const AVAILABILITY_PATCH = "tool-availability";
/** Sessions recorded before plug-in tools were offered replay with the built-in tools only. */
const PLUGIN_TOOLS_PATCH = "plugin-tools";

const { checkToolAvailability } = proxyLocalActivities<ToolActivities>({
  startToCloseTimeout: "10 seconds",
  retry: { maximumAttempts: 3, initialInterval: "200 milliseconds" },
});

export interface ReportedTools {
  /** Tool name → why the worker cannot run it. */
  unavailable: Record<string, string>;
  /** The agent's plug-in tools the worker has; undefined in sessions from before plug-ins. */
  pluginTools: PluginToolDefinition[] | undefined;
}

/**
 * The agent tools the worker running this turn cannot run (name → reason) and the plug-in tools
 * it has, or undefined when unknown (a history from before the check, or a check that failed:
 * availability then stays as last reported). A local activity: one marker event per turn, and
 * its answer is in history, so replay sees the same decision even on a worker configured
 * differently.
 */
export async function reportedTools(tools: readonly string[]): Promise<ReportedTools | undefined> {
  if (!patched(AVAILABILITY_PATCH)) return undefined;
  const describePlugins = patched(PLUGIN_TOOLS_PATCH);
  askTurnStartPatches();
  try {
    const answer = await checkToolAvailability({
      tools: [...tools],
      ...(describePlugins ? { describePlugins } : {}),
    });
    return {
      unavailable: answer.unavailable,
      pluginTools: describePlugins ? (answer.pluginTools ?? []) : undefined,
    };
  } catch (error) {
    if (isCancellation(error)) throw error;
    return undefined;
  }
}
