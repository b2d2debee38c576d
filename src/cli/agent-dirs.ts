import { existsSync } from "node:fs";
import { join, relative, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { loadAgent, type LoadedAgent } from "../agents/index.ts";
import { toolCatalogueEntries, type ToolCatalogueEntry } from "../tools/index.ts";
import type { CliContext } from "./cli-context.ts";
import { CliError } from "./cli-error.ts";
import { cliSettings } from "./cli-env.ts";

/** The templates this package ships, found next to the code (not relative to the cwd). */
export const shippedAgentsDir = fileURLToPath(new URL("../../agents", import.meta.url));

/** Shipped agents first, then `--dir` folders, then AGENTDOCK_AGENTS_DIR; the first holding an id wins. */
export function agentsDirs(context: CliContext, extraDirs: readonly string[] = []): string[] {
  const dirs = [
    shippedAgentsDir,
    ...extraDirs.map((dir) => resolve(dir)),
    ...cliSettings(context).agentsDirs,
  ];
  return [...new Set(dirs)];
}

/** The template file an id resolves to, if any folder has one. */
export function templateFileFor(id: string, dirs: readonly string[]): string | undefined {
  return dirs.map((dir) => join(dir, id, "template.json")).find((file) => existsSync(file));
}

export function shownPath(file: string): string {
  const shown = relative(process.cwd(), file);
  return shown.startsWith("..") ? file : shown;
}

/**
 * Loads an agent for a session. An unknown id or an invalid template is a failed operation
 * (exit 1), as the README promises: the id is well-formed, there is just no such agent, and the
 * message lists the ones there are.
 */
export function loadAgentTemplate(
  id: string,
  dirs: readonly string[],
  tools: readonly ToolCatalogueEntry[] = toolCatalogueEntries,
): LoadedAgent {
  try {
    return loadAgent(id, { agentsDirs: dirs, tools });
  } catch (error) {
    throw new CliError(error instanceof Error ? error.message : String(error), undefined, {
      cause: error,
    });
  }
}
