import type { LoadedAgent } from "../agents/index.ts";
import { MCP_SERVERS_ENV } from "../mcp/mcp-config.ts";
import { isMcpToolName, parseMcpToolName } from "../mcp/mcp-tool-names.ts";
import { modelAccessFromEnv } from "../llm/model-access-env.ts";
import {
  apiKeyVariableFor,
  isProviderConfigured,
  providerConfigFromEnv,
  providerEnvVars,
  type ProviderConfig,
} from "../llm/provider-config.ts";
import type { ModelProvider } from "../llm/model-id.ts";
import {
  createHttpPageReader,
  createSearchProvider,
  searchConfigFromEnv,
} from "../search/index.ts";
import type { ToolRegistry, ToolServices } from "../tools/index.ts";

/** What a valid agent still lacks before its sessions can run as written. */
export interface AgentNeeds {
  /** Environment settings of the worker, each with why (`GEMINI_API_KEY (provider gemini)`). */
  settings: string[];
  /** Tools the template names that this project does not have: never offered. */
  tools: string[];
  /**
   * Tools this project has that a worker started from this environment cannot run, each with
   * the reason and the setting that enables it (`deep_research` without a search provider).
   */
  unavailable: Record<string, string>;
}

/** What the agents' tools are checked against: the worker's registry and services. */
export interface ToolReadiness {
  registry: ToolRegistry;
  services: ToolServices;
}

/**
 * The services a worker started from this environment hands its tools (the page reader it always
 * has; the search provider SEARCH_PROVIDER and SEARXNG_URL configure). Search settings the worker
 * would refuse count as none here: the worker names what is wrong with them when it starts.
 */
export function workerToolServices(
  env: Readonly<Record<string, string | undefined>>,
): ToolServices {
  let searchProvider;
  try {
    searchProvider = createSearchProvider(searchConfigFromEnv(env));
  } catch {
    searchProvider = undefined;
  }
  return {
    pageReader: createHttpPageReader(),
    ...(searchProvider === undefined ? {} : { searchProvider }),
  };
}

/** The worker-side view of the environment, read once for every agent listed. */
export interface ProviderReadiness {
  config: ProviderConfig | undefined;
  allowed: readonly ModelProvider[] | undefined;
}

/**
 * Reads the provider settings the way a worker started from this environment would. A setting the
 * worker would refuse leaves that part unknown here (the worker reports it when it starts).
 */
export function providerReadiness(
  env: Readonly<Record<string, string | undefined>>,
): ProviderReadiness {
  let config: ProviderConfig | undefined;
  try {
    config = providerConfigFromEnv(env);
  } catch {
    return { config: undefined, allowed: undefined };
  }
  try {
    const access = modelAccessFromEnv(env, {
      providerConfig: config,
      agentsDirs: [],
      templateBaseURLs: [],
    });
    return { config, allowed: access.providers };
  } catch {
    return { config, allowed: undefined };
  }
}

export function agentNeeds(
  agent: LoadedAgent,
  readiness: ProviderReadiness,
  tools: ToolReadiness,
): AgentNeeds {
  const { provider, baseURL } = agent.template.llm;
  const settings: string[] = [];
  if (readiness.allowed !== undefined && !readiness.allowed.includes(provider)) {
    settings.push(`AGENTDOCK_ALLOWED_PROVIDERS to include ${provider}`);
  }
  if (readiness.config !== undefined && provider === "openai-compatible") {
    if (baseURL === undefined && readiness.config.openaiCompatible?.baseURL === undefined) {
      settings.push(`${providerEnvVars.openaiCompatible.baseURL} (provider openai-compatible)`);
    }
  } else if (readiness.config !== undefined && !isProviderConfigured(readiness.config, provider)) {
    const variable = apiKeyVariableFor(provider);
    if (variable !== undefined) settings.push(`${variable} (provider ${provider})`);
  }
  const missing = new Set(agent.missingTools);
  const present = agent.template.tools.filter((name) => !missing.has(name));
  return {
    settings,
    tools: agent.missingTools,
    unavailable: tools.registry.unavailable(present, tools.services),
  };
}

/** `GEMINI_API_KEY (provider gemini); tools deep_research, pubmed_search (not in this project)` */
export function describeNeeds(needs: AgentNeeds): string | undefined {
  const parts = [...needs.settings];
  const mcp = needs.tools.filter(isMcpToolName);
  const other = needs.tools.filter((name) => !isMcpToolName(name));
  if (other.length > 0) {
    parts.push(
      `${other.length === 1 ? "tool" : "tools"} ${other.join(", ")} (AgentDock's; not in this project, never offered)`,
    );
  }
  if (mcp.length > 0) {
    const servers = [...new Set(mcp.map((name) => parseMcpToolName(name)?.server ?? name))];
    parts.push(
      `${mcp.length === 1 ? "tool" : "tools"} ${mcp.join(", ")} (not installed: no MCP server ${servers.join(", ")} in ${MCP_SERVERS_ENV}; never offered)`,
    );
  }
  // Tools held back for one reason are named together: "tools search, deep_research not configured: …"
  const byReason = new Map<string, string[]>();
  for (const [tool, reason] of Object.entries(needs.unavailable)) {
    byReason.set(reason, [...(byReason.get(reason) ?? []), tool]);
  }
  for (const [reason, names] of byReason) {
    parts.push(`${names.length === 1 ? "tool" : "tools"} ${names.join(", ")} ${reason}`);
  }
  return parts.length === 0 ? undefined : parts.join("; ");
}
