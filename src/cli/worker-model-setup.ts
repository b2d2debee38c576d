import type { ProviderV4 } from "@ai-sdk/provider";
import { listAgents } from "../agents/index.ts";
import { modelAccessFromEnv } from "../llm/model-access-env.ts";
import type { ModelAccess } from "../llm/model-access.ts";
import { createModelProvider } from "../llm/model-provider.ts";
import { providerConfigFromEnv, providerSecrets } from "../llm/provider-config.ts";
import { toolCatalogueEntries } from "../tools/index.ts";
import { secretsFromEnv } from "../worker/redact-secrets.ts";

export interface WorkerModelSetup {
  modelProvider: ProviderV4;
  access: ModelAccess;
  /** Values the worker redacts from every error: its configured secrets and provider keys. */
  secrets: string[];
}

/**
 * Everything a worker decides about models from its own configuration, read once at start: the
 * providers and keys, and what a session's template may reach (its agents folders' templates and
 * scripts, and the operator's allow-lists). Templates that fail to load are left out here; they
 * are refused where sessions start.
 */
export function workerModelSetup(
  env: Readonly<Record<string, string | undefined>>,
  agentsDirs: readonly string[],
): WorkerModelSetup {
  const providerConfig = providerConfigFromEnv(env);
  const templateBaseURLs = listAgents({ agentsDirs, tools: toolCatalogueEntries }).flatMap(
    (listing) =>
      listing.ok && listing.agent.template.llm.baseURL !== undefined
        ? [listing.agent.template.llm.baseURL]
        : [],
  );
  const access = modelAccessFromEnv(env, { providerConfig, agentsDirs, templateBaseURLs });
  return {
    modelProvider: createModelProvider(providerConfig, access),
    access,
    secrets: [...secretsFromEnv(env), ...providerSecrets(providerConfig)],
  };
}
