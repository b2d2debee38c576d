import { readdirSync, statSync } from "node:fs";
import { join } from "node:path";
import type { ProviderV4 } from "@ai-sdk/provider";
import { loadTemplateFile } from "../agents/index.ts";
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

function isFile(path: string): boolean {
  try {
    return statSync(path).isFile();
  } catch {
    return false;
  }
}

function errorMessage(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}

/**
 * `llm.baseURL` of every template in the agents folders. Nothing there may stop the worker:
 * missing folders and entries that are no agent folder (files, dangling symlinks) are skipped, an
 * unreadable folder or an invalid template allows nothing and is reported through `warn`
 * (sessions cannot start from it anyway: loading it fails there).
 */
function templateBaseURLs(
  agentsDirs: readonly string[],
  warn: (message: string) => void,
): string[] {
  const urls: string[] = [];
  for (const dir of agentsDirs) {
    let entries: string[];
    try {
      entries = readdirSync(dir);
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== "ENOENT") {
        warn(`agents folder ${dir} cannot be read: ${errorMessage(error)}`);
      }
      continue;
    }
    for (const entry of entries) {
      const file = join(dir, entry, "template.json");
      // Not an agent folder (a file, a dangling symlink): nothing to allow, nothing to report.
      if (!isFile(file)) continue;
      try {
        const { baseURL } = loadTemplateFile(file, toolCatalogueEntries).template.llm;
        if (baseURL !== undefined) urls.push(baseURL);
      } catch (error) {
        warn(`agent ${entry} in ${dir} allows no base URL: ${errorMessage(error)}`);
      }
    }
  }
  return urls;
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
): WorkerModelSetup {
  const providerConfig = providerConfigFromEnv(env);
  const access = modelAccessFromEnv(env, {
    providerConfig,
    agentsDirs,
    templateBaseURLs: templateBaseURLs(agentsDirs, warn),
  });
  return {
    modelProvider: createModelProvider(providerConfig, access),
    access,
    secrets: [...secretsFromEnv(env), ...providerSecrets(providerConfig)],
  };
}
