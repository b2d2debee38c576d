import { isCancellation, patched, proxyLocalActivities } from "@temporalio/workflow";
import type {
  PluginToolDefinition,
  ToolAvailability,
  ToolAvailabilityAnswer,
  ToolAvailabilityInput,
} from "../activities/tool-availability.ts";
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
 * Each session's last full answer (keyed by the session's state object, which lives as long as
 * its run). Workflow state: replay rebuilds it from the recorded answers, so an `unchanged` answer
 * resolves to the same availability live and on replay. A new run starts without one and records
 * a full answer at its first turn, so every run's history reads on its own.
 */
const lastAnswers = new WeakMap<object, ToolAvailability>();

/** The full answer an `unchanged` one stands for; a full one becomes the one to compare with. */
function resolved(
  owner: object,
  answer: ToolAvailabilityAnswer,
  known: ToolAvailability | undefined,
): ToolAvailability {
  if (!("unchanged" in answer)) {
    lastAnswers.set(owner, answer);
    return answer;
  }
  if (known === undefined) {
    throw new Error("the tool availability check answered `unchanged` to a turn that sent none");
  }
  return known;
}

/**
 * The agent tools the worker running this turn cannot run (name → reason) and the plug-in tools
 * it has (`owner`: the session's state, which remembers the last answer), or undefined when unknown (a history from before the check, or a check that failed:
 * availability then stays as last reported). A local activity: one marker event per turn, and
 * its answer is in history, so replay sees the same decision even on a worker configured
 * differently.
 */
export async function reportedTools(
  owner: object,
  tools: readonly string[],
): Promise<ReportedTools | undefined> {
  if (!patched(AVAILABILITY_PATCH)) return undefined;
  const describePlugins = patched(PLUGIN_TOOLS_PATCH);
  askTurnStartPatches();
  try {
    const known = lastAnswers.get(owner);
    const answer = resolved(
      owner,
      await checkToolAvailability<ToolAvailabilityInput>({
        tools: [...tools],
        ...(describePlugins ? { describePlugins } : {}),
        ...(known === undefined ? {} : { known }),
      }),
      known,
    );
    return {
      unavailable: answer.unavailable,
      pluginTools: describePlugins ? (answer.pluginTools ?? []) : undefined,
    };
  } catch (error) {
    if (isCancellation(error)) throw error;
    return undefined;
  }
}
