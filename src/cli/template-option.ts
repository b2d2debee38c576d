import { existsSync, statSync } from "node:fs";
import { join } from "node:path";
import { listAgentIds, loadAgent, loadTemplateFile, type LoadedAgent } from "../agents/index.ts";
import type { ToolCatalogueEntry } from "../tools/index.ts";
import { CliError } from "./cli-error.ts";
import { shownPath } from "./agent-dirs.ts";

/** The template given is not for this agent: its sessions are skipped, not failed. */
export class NoTemplateForAgent extends CliError {}

/**
 * The templates `--template <file|dir>` names, looked up by agent id: a template file (or a folder
 * holding template.json) is one agent's template; any other folder holds `<id>/template.json`
 * like agents/. Each template is loaded and validated exactly as a new session's would be, so an
 * invalid one fails here with the loader's message (file, path, fix).
 */
export interface TemplateOption {
  /** As the user wrote it (for messages). */
  source: string;
  /** The template for this agent, or a CliError that says why there is none. */
  forAgent(agentId: string): LoadedAgent;
}

/** The one template a path names (a file, or a folder holding template.json), loaded and validated. */
export function loadTemplateArg(
  source: string,
  tools: readonly ToolCatalogueEntry[],
): LoadedAgent | undefined {
  if (!existsSync(source)) throw new CliError(`--template ${source}: no such file or folder`);
  const single = statSync(source).isFile()
    ? source
    : existsSync(join(source, "template.json"))
      ? join(source, "template.json")
      : undefined;
  return single === undefined ? undefined : load(() => loadTemplateFile(single, tools));
}

export function templateOption(
  source: string,
  tools: readonly ToolCatalogueEntry[],
): TemplateOption {
  const single = loadTemplateArg(source, tools);
  if (single !== undefined) {
    return {
      source,
      forAgent: (agentId) => {
        if (single.template.id !== agentId) {
          throw new NoTemplateForAgent(
            `--template ${shownPath(single.file)} is agent "${single.template.id}", but the session runs agent "${agentId}"`,
          );
        }
        return single;
      },
    };
  }
  const loaded = new Map<string, LoadedAgent>();
  return {
    source,
    forAgent: (agentId) => {
      const known = loaded.get(agentId);
      if (known !== undefined) return known;
      const ids = listAgentIds([source]);
      if (!ids.includes(agentId)) {
        throw new NoTemplateForAgent(
          `--template ${source} has no template for agent "${agentId}" (expected ${join(source, agentId, "template.json")}${ids.length > 0 ? `; it has ${ids.join(", ")}` : ""})`,
        );
      }
      const agent = load(() => loadAgent(agentId, { agentsDirs: [source], tools }));
      loaded.set(agentId, agent);
      return agent;
    },
  };
}

function load(read: () => LoadedAgent): LoadedAgent {
  try {
    return read();
  } catch (error) {
    throw new CliError(
      `the --template does not load: ${error instanceof Error ? error.message : String(error)}`,
      undefined,
      { cause: error },
    );
  }
}
