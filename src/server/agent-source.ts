import { listAgentIds, listAgents, loadAgent, TemplateTooLargeError } from "../agents/index.ts";
import type { AgentTemplate } from "../orchestration/index.ts";
import { toolCatalogueEntries } from "../tools/index.ts";
import { ApiError } from "./api-error.ts";

export interface AgentSummary {
  id: string;
  valid: boolean;
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

  constructor(dirs: readonly string[]) {
    this.dirs = dirs;
  }

  list(): AgentSummary[] {
    return listAgents({ agentsDirs: this.dirs, tools: toolCatalogueEntries }).map((listing) =>
      listing.ok
        ? {
            id: listing.id,
            valid: true,
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
    if (!listAgentIds(this.dirs).includes(id)) {
      throw new ApiError(404, "unknown_agent", `no agent "${id}" (GET /api/agents lists them)`);
    }
    try {
      return loadAgent(id, { agentsDirs: this.dirs, tools: toolCatalogueEntries }).template;
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
