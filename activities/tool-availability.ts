import { findTool } from "../src/tools/index.ts";

export interface ToolAvailabilityInput {
  /** The agent's tool names, as its template lists them. */
  tools: string[];
}

/** Plain JSON, recorded in history: tool name → why this worker cannot run it. */
export interface ToolAvailability {
  unavailable: Record<string, string>;
}

/** What this worker has that tools depend on. */
export interface ToolAvailabilityDeps {
  searchConfigured: boolean;
}

export const searchNotConfiguredReason =
  "not configured: no search provider (an operator sets SEARCH_PROVIDER=searxng and SEARXNG_URL=<base URL of a SearXNG instance> in the worker's environment and restarts it)";

/**
 * Which of the agent's tools this worker cannot run, and why. A name the worker does not know is
 * "not installed" (a plug-in missing on this worker); a known tool whose backend is not
 * configured says which setting enables it.
 */
export function unavailableTools(
  tools: readonly string[],
  deps: ToolAvailabilityDeps,
): Record<string, string> {
  const unavailable: Record<string, string> = {};
  for (const name of tools) {
    if (findTool(name) === undefined) {
      unavailable[name] = `not installed: this worker has no tool named ${JSON.stringify(name)}`;
    } else if (name === "search" && !deps.searchConfigured) {
      unavailable[name] = searchNotConfiguredReason;
    }
  }
  return unavailable;
}
