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

/** What a valid agent still lacks before its sessions can run as written. */
export interface AgentNeeds {
  /** Environment settings of the worker, each with why (`GEMINI_API_KEY (provider gemini)`). */
  settings: string[];
  /** Tools the template names that this project does not have: never offered. */
  tools: string[];
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

export function agentNeeds(agent: LoadedAgent, readiness: ProviderReadiness): AgentNeeds {
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
  return { settings, tools: agent.missingTools };
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
  return parts.length === 0 ? undefined : parts.join("; ");
}
