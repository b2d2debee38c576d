import { z } from "zod";
import { ProviderConfigError } from "./provider-config-error.ts";

const secret = z.string().trim().min(1, "must not be empty");
const httpUrl = z.url({
  protocol: /^https?$/,
  error: "must be an http(s) URL such as http://127.0.0.1:11434/v1",
});
const keyedProvider = z.strictObject({ apiKey: secret, baseURL: httpUrl.optional() });

export const providerConfigSchema = z.strictObject({
  openai: keyedProvider.optional(),
  anthropic: keyedProvider.optional(),
  openaiCompatible: z
    .strictObject({
      apiKey: secret.optional(),
      baseURL: httpUrl.optional(),
      name: z.string().trim().min(1).optional(),
    })
    .optional(),
  gemini: keyedProvider.optional(),
  groq: keyedProvider.optional(),
  deepseek: keyedProvider.optional(),
  cerebras: keyedProvider.optional(),
  scripted: z
    .strictObject({
      /** Relative `script:<path>` models resolve against it; the worker's cwd when unset. */
      scriptDir: z.string().min(1).optional(),
    })
    .default({}),
});

export type ProviderConfig = z.output<typeof providerConfigSchema>;
export type ProviderConfigInput = z.input<typeof providerConfigSchema>;

/** Providers whose section needs an API key (the OpenAI-compatible one may run without). */
export const keyedSections = [
  "openai",
  "anthropic",
  "gemini",
  "groq",
  "deepseek",
  "cerebras",
] as const;
export type KeyedSection = (typeof keyedSections)[number];
type UrlSection = KeyedSection | "openaiCompatible";

/**
 * The environment variables behind each config field, for reading and for error messages. The key
 * names are the ones AgentDock users already set; Gemini also takes the AI SDK's own name.
 */
export const providerEnvVars = {
  openai: { apiKey: "OPENAI_API_KEY", baseURL: "OPENAI_BASE_URL" },
  anthropic: { apiKey: "ANTHROPIC_API_KEY", baseURL: "ANTHROPIC_BASE_URL" },
  openaiCompatible: {
    apiKey: "OPENAI_COMPATIBLE_API_KEY",
    baseURL: "OPENAI_COMPATIBLE_BASE_URL",
  },
  gemini: {
    apiKey: "GEMINI_API_KEY",
    apiKeyAlternatives: ["GOOGLE_GENERATIVE_AI_API_KEY"],
    baseURL: "GEMINI_BASE_URL",
  },
  groq: { apiKey: "GROQ_API_KEY", baseURL: "GROQ_BASE_URL" },
  deepseek: { apiKey: "DEEPSEEK_API_KEY", baseURL: "DEEPSEEK_BASE_URL" },
  cerebras: { apiKey: "CEREBRAS_API_KEY", baseURL: "CEREBRAS_BASE_URL" },
} as const;

type Env = Readonly<Record<string, string | undefined>>;

/** Unset and blank variables count as absent, as docker-compose writes `KEY=` for unset ones. */
function read(env: Env, name: string): string | undefined {
  const value = env[name]?.trim();
  return value === undefined || value === "" ? undefined : value;
}

function apiKeyFrom(env: Env, section: KeyedSection | "openaiCompatible"): string | undefined {
  const vars = providerEnvVars[section];
  const alternatives = "apiKeyAlternatives" in vars ? vars.apiKeyAlternatives : [];
  for (const name of [vars.apiKey, ...alternatives]) {
    const value = read(env, name);
    if (value !== undefined) return value;
  }
  return undefined;
}

/**
 * Reads the provider settings from an environment. A provider's section exists only when its API
 * key is set (the OpenAI-compatible one when its key or base URL is); base URLs are validated even
 * then, and every error names the variable to fix. API keys never appear in messages.
 */
export function providerConfigFromEnv(env: Env): ProviderConfig {
  const sections: UrlSection[] = [...keyedSections, "openaiCompatible"];
  const urls = Object.fromEntries(
    sections.map((section) => [section, read(env, providerEnvVars[section].baseURL)]),
  ) as Record<UrlSection, string | undefined>;

  const problems: { variable: string; message: string }[] = [];
  for (const section of sections) {
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

  const keyed = Object.fromEntries(
    keyedSections.flatMap((section) => {
      const apiKey = apiKeyFrom(env, section);
      return apiKey === undefined
        ? []
        : [[section, withoutUndefined({ apiKey, baseURL: urls[section] })]];
    }),
  );
  const compatibleKey = apiKeyFrom(env, "openaiCompatible");
  const compatibleUrl = urls.openaiCompatible;
  return providerConfigSchema.parse(
    withoutUndefined({
      ...keyed,
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
  return [
    ...keyedSections.map((section) => config[section]?.apiKey),
    config.openaiCompatible?.apiKey,
  ].filter((key): key is string => key !== undefined);
}

/** The base URLs the operator configured for the providers themselves. */
export function configuredProviderBaseURLs(config: ProviderConfig): string[] {
  return [
    ...keyedSections.map((section) => config[section]?.baseURL),
    config.openaiCompatible?.baseURL,
  ].filter((url): url is string => url !== undefined);
}

const sectionOf: Record<string, KeyedSection | "openaiCompatible" | undefined> = {
  openai: "openai",
  anthropic: "anthropic",
  "openai-compatible": "openaiCompatible",
  gemini: "gemini",
  groq: "groq",
  deepseek: "deepseek",
  cerebras: "cerebras",
};

/** The variable holding a provider's API key (`GEMINI_API_KEY`); undefined for `scripted`. */
export function apiKeyVariableFor(provider: string): string | undefined {
  const section = sectionOf[provider];
  return section === undefined ? undefined : providerEnvVars[section].apiKey;
}

/** Whether the worker's config can serve `provider` (an API key, or a URL where none is needed). */
export function isProviderConfigured(config: ProviderConfig, provider: string): boolean {
  if (provider === "scripted") return true;
  const section = sectionOf[provider];
  return section !== undefined && config[section] !== undefined;
}
