import { loadAgent } from "../../src/agents/index.ts";
import type { AgentTemplate } from "../../src/orchestration/index.ts";
import { toolCatalogueEntries } from "../../src/tools/index.ts";

/** A shipped template from agents/, loaded through the real loader. */
export function shippedAgent(id: string): AgentTemplate {
  return loadAgent(id, { agentsDirs: ["agents"], tools: toolCatalogueEntries }).template;
}
