import {
  listAgentIds,
  listAgents,
  loadAgent,
  TemplateTooLargeError,
  type LoadedAgent,
} from "../agents/index.ts";
import type { AgentTemplate } from "../orchestration/index.ts";
import { toolCatalogueEntries, type ToolCatalogueEntry } from "../tools/index.ts";
import { ApiError } from "./api-error.ts";

export interface AgentSummary {
  id: string;
  valid: boolean;
  /** The template's content hash, as sessions started from it pin it. */
  version?: string;
  name?: string;
  description?: string;
  steps?: string[];
  tools?: string[];
  warnings?: string[];
  error?: string;
}

/**
 * The agent templates the API serves, read from disk on every request so an edited template
 * applies to the next new session (running sessions keep the snapshot they started with).
 */
export class AgentSource {
  private readonly dirs: readonly string[];
  private readonly tools: readonly ToolCatalogueEntry[];

  /** `tools`: what templates are checked against (the plug-ins the CLI loaded included). */
  constructor(
    dirs: readonly string[],
    tools: readonly ToolCatalogueEntry[] = toolCatalogueEntries,
  ) {
    this.dirs = dirs;
    this.tools = tools;
  }

  list(): AgentSummary[] {
    return listAgents({ agentsDirs: this.dirs, tools: this.tools }).map((listing) =>
      listing.ok
        ? {
            id: listing.id,
            valid: true,
            version: listing.agent.version,
            name: listing.agent.template.name,
            description: listing.agent.template.description,
            steps: listing.agent.template.orchestration.steps.map((step) => step.name),
            tools: listing.agent.template.tools,
            warnings: listing.agent.warnings.map(
              (warning) => `${warning.path}: ${warning.message}`,
            ),
          }
        : { id: listing.id, valid: false, error: listing.error.message },
    );
  }

  /**
   * The template for a new session: 404 for an unknown id, 413 for a file over the size limit,
   * 422 for one that does not load. Unreadable folder entries are skipped with a warning.
   */
  template(id: string): AgentTemplate {
    return this.agent(id).template;
  }

  /** The loaded agent (template, version, file), with the same errors as `template`. */
  agent(id: string): LoadedAgent {
    if (!listAgentIds(this.dirs).includes(id)) {
      throw new ApiError(404, "unknown_agent", `no agent "${id}" (GET /api/agents lists them)`);
    }
    try {
      return loadAgent(id, { agentsDirs: this.dirs, tools: this.tools });
    } catch (error) {
      if (error instanceof TemplateTooLargeError) {
        throw new ApiError(
          413,
          "template_too_large",
          `agent "${id}" has an invalid template: ${error.message}`,
          { cause: error },
        );
      }
      throw new ApiError(
        422,
        "invalid_agent",
        `agent "${id}" has an invalid template: ${error instanceof Error ? error.message : String(error)}`,
        { cause: error },
      );
    }
  }
}
