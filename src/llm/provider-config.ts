import { z } from "zod";
import { ProviderConfigError } from "./provider-config-error.ts";

const secret = z.string().trim().min(1, "must not be empty");
const httpUrl = z.url({
  protocol: /^https?$/,
  error: "must be an http(s) URL such as http://127.0.0.1:11434/v1",
});

export const providerConfigSchema = z.strictObject({
  openai: z.strictObject({ apiKey: secret, baseURL: httpUrl.optional() }).optional(),
  anthropic: z.strictObject({ apiKey: secret, baseURL: httpUrl.optional() }).optional(),
  openaiCompatible: z
    .strictObject({
      apiKey: secret.optional(),
      baseURL: httpUrl.optional(),
      name: z.string().trim().min(1).optional(),
    })
    .optional(),
  scripted: z
    .strictObject({
      /** Relative `script:<path>` models resolve against it; the worker's cwd when unset. */
      scriptDir: z.string().min(1).optional(),
    })
    .default({}),
});

export type ProviderConfig = z.output<typeof providerConfigSchema>;
export type ProviderConfigInput = z.input<typeof providerConfigSchema>;

/** The environment variable behind each config field, for error messages. */
export const providerEnvVars = {
  openai: { apiKey: "OPENAI_API_KEY", baseURL: "OPENAI_BASE_URL" },
  anthropic: { apiKey: "ANTHROPIC_API_KEY", baseURL: "ANTHROPIC_BASE_URL" },
  openaiCompatible: {
    apiKey: "OPENAI_COMPATIBLE_API_KEY",
    baseURL: "OPENAI_COMPATIBLE_BASE_URL",
  },
} as const;

type Env = Readonly<Record<string, string | undefined>>;

/** Unset and blank variables count as absent, as docker-compose writes `KEY=` for unset ones. */
function read(env: Env, name: string): string | undefined {
  const value = env[name]?.trim();
  return value === undefined || value === "" ? undefined : value;
}

/**
 * Reads the provider settings from an environment. A provider's section exists only when its API
 * key is set (the OpenAI-compatible one when its key or base URL is); base URLs are validated even
 * then, and every error names the variable to fix. API keys never appear in messages.
 */
export function providerConfigFromEnv(env: Env): ProviderConfig {
  const openaiKey = read(env, providerEnvVars.openai.apiKey);
  const anthropicKey = read(env, providerEnvVars.anthropic.apiKey);
  const compatibleKey = read(env, providerEnvVars.openaiCompatible.apiKey);
  const compatibleUrl = read(env, providerEnvVars.openaiCompatible.baseURL);
  const urls = {
    openai: read(env, providerEnvVars.openai.baseURL),
    anthropic: read(env, providerEnvVars.anthropic.baseURL),
    openaiCompatible: compatibleUrl,
  };

  const problems: { variable: string; message: string }[] = [];
  for (const section of ["openai", "anthropic", "openaiCompatible"] as const) {
    const value = urls[section];
    if (value !== undefined && !httpUrl.safeParse(value).success) {
      const variable = providerEnvVars[section].baseURL;
      problems.push({
        variable,
        message: `${variable} must be an http(s) URL such as http://127.0.0.1:11434/v1 (got "${value}")`,
      });
    }
  }
  if (problems.length > 0) {
    throw new ProviderConfigError(
      `invalid provider settings in the environment:\n${problems.map((p) => `  ${p.message}`).join("\n")}`,
      problems.map((p) => p.variable),
    );
  }

  return providerConfigSchema.parse(
    withoutUndefined({
      openai:
        openaiKey === undefined
          ? undefined
          : withoutUndefined({ apiKey: openaiKey, baseURL: urls.openai }),
      anthropic:
        anthropicKey === undefined
          ? undefined
          : withoutUndefined({ apiKey: anthropicKey, baseURL: urls.anthropic }),
      openaiCompatible:
        compatibleKey === undefined && compatibleUrl === undefined
          ? undefined
          : withoutUndefined({ apiKey: compatibleKey, baseURL: compatibleUrl }),
      scripted: {},
    }),
  );
}

/** Absent settings stay absent keys, so configs compare and serialise cleanly. */
function withoutUndefined<T extends Record<string, unknown>>(record: T): Partial<T> {
  return Object.fromEntries(
    Object.entries(record).filter(([, value]) => value !== undefined),
  ) as Partial<T>;
}

/** The API keys in a provider config: redacted wherever an error could carry them. */
export function providerSecrets(config: ProviderConfig): string[] {
  return [config.openai?.apiKey, config.anthropic?.apiKey, config.openaiCompatible?.apiKey].filter(
    (key): key is string => key !== undefined,
  );
}
