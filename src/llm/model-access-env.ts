import { delimiter, resolve } from "node:path";
import { z } from "zod";
import { modelAccessEnvVars, type ModelAccess } from "./model-access.ts";
import { modelProviders, type ModelProvider } from "./model-id.ts";
import { ProviderConfigError } from "./provider-config-error.ts";
import { configuredProviderBaseURLs, type ProviderConfig } from "./provider-config.ts";

type Env = Readonly<Record<string, string | undefined>>;

const allowedUrlPattern = /^https?:\/\/[^\s/?#:]+(:(\d+|\*))?(\/\S*)?$/i;

function list(value: string | undefined, separator: RegExp | string): string[] {
  return (value ?? "")
    .split(separator)
    .map((item) => item.trim())
    .filter((item) => item !== "");
}

const envSchema = z.object({
  [modelAccessEnvVars.providers]: z
    .string()
    .optional()
    .transform((value) => list(value, /[\s,]+/))
    .pipe(
      z.array(
        z.enum(modelProviders, {
          error: (issue) =>
            `"${String(issue.input)}" is not a provider; use ${modelProviders.join(", ")}`,
        }),
      ),
    ),
  [modelAccessEnvVars.baseURLs]: z
    .string()
    .optional()
    .transform((value) => list(value, /[\s,]+/))
    .pipe(
      z.array(
        z.string().regex(allowedUrlPattern, {
          error: (issue) =>
            `"${String(issue.input)}" is not an http(s) base URL such as http://127.0.0.1:11434/v1 (":*" as the port allows any port)`,
        }),
      ),
    ),
  [modelAccessEnvVars.scriptDirs]: z
    .string()
    .optional()
    .transform((value) => list(value, delimiter).map((dir) => resolve(dir))),
});

/** The base URLs the operator configured for the providers themselves. */
export function configuredBaseURLs(config: ProviderConfig): string[] {
  return configuredProviderBaseURLs(config);
}

export interface WorkerOwnConfig {
  providerConfig: ProviderConfig;
  /** The worker's agents folders: their scripts are allowed. */
  agentsDirs: readonly string[];
  /** `llm.baseURL` of every template in those folders: allowed, as the operator wrote them. */
  templateBaseURLs: readonly string[];
}

/**
 * The worker's model access, from its environment and its own configuration: providers from
 * AGENTDOCK_ALLOWED_PROVIDERS (all when unset); base URLs from AGENTDOCK_ALLOWED_BASE_URLS
 * (comma separated), the providers' configured base URLs and the worker's own templates; script
 * folders from AGENTDOCK_SCRIPT_DIRS (path-list separated) and the agents folders.
 */
export function modelAccessFromEnv(env: Env, own: WorkerOwnConfig): ModelAccess {
  const parsed = envSchema.safeParse(env);
  if (!parsed.success) {
    const variables = [...new Set(parsed.error.issues.map((issue) => String(issue.path[0])))];
    const lines = parsed.error.issues.map(
      (issue) => `  ${String(issue.path[0])}: ${issue.message}`,
    );
    throw new ProviderConfigError(
      `invalid model access settings in the environment:\n${lines.join("\n")}`,
      variables,
    );
  }
  const data = parsed.data;
  const providers: readonly ModelProvider[] =
    data[modelAccessEnvVars.providers].length === 0
      ? modelProviders
      : [...new Set(data[modelAccessEnvVars.providers])];
  return {
    providers,
    baseURLs: [
      ...new Set([
        ...data[modelAccessEnvVars.baseURLs],
        ...configuredBaseURLs(own.providerConfig),
        ...own.templateBaseURLs,
      ]),
    ],
    scriptDirs: [
      ...new Set([
        ...data[modelAccessEnvVars.scriptDirs],
        ...own.agentsDirs.map((dir) => resolve(dir)),
      ]),
    ],
  };
}
