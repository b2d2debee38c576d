import type { ProviderV4 } from "@ai-sdk/provider";
import { listAgents } from "../agents/index.ts";
import { modelAccessFromEnv } from "../llm/model-access-env.ts";
import type { ModelAccess } from "../llm/model-access.ts";
import { createModelProvider } from "../llm/model-provider.ts";
import { providerConfigFromEnv, providerSecrets } from "../llm/provider-config.ts";
import { toolCatalogueEntries, type ToolCatalogueEntry } from "../tools/index.ts";
import { secretsFromEnv } from "../worker/redact-secrets.ts";

export interface WorkerModelSetup {
  modelProvider: ProviderV4;
  access: ModelAccess;
  /** Values the worker redacts from every error: its configured secrets and provider keys. */
  secrets: string[];
}

/**
 * `llm.baseURL` of every template in the agents folders (the one each id resolves to). Nothing
 * there may stop the worker: entries that cannot be read are skipped with a warning, and an
 * invalid template allows nothing and is reported (sessions cannot start from it anyway).
 */
function templateBaseURLs(
  agentsDirs: readonly string[],
  tools: readonly ToolCatalogueEntry[],
  warn: (message: string) => void,
): string[] {
  const listings = listAgents({
    agentsDirs,
    tools,
    onSkippedEntry: ({ path, reason }) => {
      warn(`skipping ${path} in the agents folder: ${reason}`);
    },
  });
  return listings.flatMap((listing) => {
    if (!listing.ok) {
      warn(`agent ${listing.id} allows no base URL: ${listing.error.message}`);
      return [];
    }
    const { baseURL } = listing.agent.template.llm;
    return baseURL === undefined ? [] : [baseURL];
  });
}

/**
 * Everything a worker decides about models from its own configuration, read once at start: the
 * providers and keys, and what a session's template may reach (its agents folders' templates and
 * scripts, and the operator's allow-lists).
 */
export function workerModelSetup(
  env: Readonly<Record<string, string | undefined>>,
  agentsDirs: readonly string[],
  warn: (message: string) => void,
  /** The tools the worker has (its plug-ins included): templates naming them are valid. */
  tools: readonly ToolCatalogueEntry[] = toolCatalogueEntries,
): WorkerModelSetup {
  const providerConfig = providerConfigFromEnv(env);
  const access = modelAccessFromEnv(env, {
    providerConfig,
    agentsDirs,
    templateBaseURLs: templateBaseURLs(agentsDirs, tools, warn),
  });
  return {
    modelProvider: createModelProvider(providerConfig, access),
    access,
    secrets: [...secretsFromEnv(env), ...providerSecrets(providerConfig)],
  };
}
