import { apiKeyVariableFor } from "../../llm/provider-config.ts";
import { providerOptionKeys } from "../../llm/provider-options.ts";
import type { Collected } from "./agentdock-shape.ts";
import { isRecord } from "./is-record.ts";
import { didYouMean, formatPath } from "./template-paths.ts";

const llmConfigKeys = ["model", "temperature", "maxTokens", "baseURL"] as const;

function keyVariable(provider: string): string {
  return apiKeyVariableFor(provider) ?? "the provider's key";
}

/** AgentDock's `apiKey` entry that describes the key an agent needs, rather than holding one. */
function isKeyDescription(value: unknown): boolean {
  if (!isRecord(value)) return false;
  return Object.entries(value).every(
    ([key, entry]) =>
      (key === "required" && typeof entry === "boolean") ||
      ((key === "description" || key === "instructions") && typeof entry === "string"),
  );
}

/** `nodeConfigurations["llm.<provider>"]` as our `llm` block. */
export function llmBlock(
  provider: string,
  llmKey: string,
  config: unknown,
  { issues, warnings }: Collected,
): Record<string, unknown> {
  const llm: Record<string, unknown> = { provider };
  const providerOptions: Record<string, unknown> = {};
  const optionKeys = providerOptionKeys(provider);
  const at = (key: string): string => formatPath(["nodeConfigurations", llmKey, key]);
  if (config !== undefined && !isRecord(config)) {
    issues.push({
      path: formatPath(["nodeConfigurations", llmKey]),
      message: 'expected an object of model settings, e.g. {"model": "gpt-4o-mini"}',
    });
  }
  for (const [key, value] of Object.entries(isRecord(config) ? config : {})) {
    if ((llmConfigKeys as readonly string[]).includes(key)) {
      llm[key] = value;
    } else if (key === "apiKey") {
      if (isKeyDescription(value)) {
        warnings.push({
          path: at(key),
          message: `describes the key the agent needs; keys come from the worker's environment: set ${keyVariable(provider)}`,
        });
      } else {
        issues.push({
          path: at(key),
          message:
            "API keys are never stored in templates; set the provider's key in the environment instead",
        });
      }
    } else if (key === "useCustomApiKey") {
      if (value === true) {
        warnings.push({
          path: at(key),
          message: `has no effect: every session uses the key in the worker's environment (${keyVariable(provider)})`,
        });
      }
    } else if (key === "provider") {
      if (value !== provider) {
        issues.push({
          path: at(key),
          message: `says ${JSON.stringify(value)} but the node is "${llmKey}"; remove it or make them agree`,
        });
      }
    } else if (optionKeys.includes(key)) {
      providerOptions[key] = value;
    } else {
      const known = [...llmConfigKeys, "useCustomApiKey", ...optionKeys];
      issues.push({
        path: at(key),
        message: `unknown model setting "${key}"${didYouMean(key, known)} (allowed: ${[...llmConfigKeys, "useCustomApiKey"].join(", ")}${optionKeys.length > 0 ? `; ${provider} also takes ${optionKeys.join(", ")}` : ""})`,
      });
    }
  }
  if (Object.keys(providerOptions).length > 0) llm.providerOptions = providerOptions;
  if (llm.model === undefined) llm.model = provider === "scripted" ? "auto" : undefined;
  return llm;
}
