import { apiKeyVariableFor } from "../../llm/provider-config.ts";
import { providerOptionKeys } from "../../llm/provider-options.ts";
import type { TemplateIssue } from "./template-error.ts";
import { didYouMean, formatPath, type PathSegment } from "./template-paths.ts";

/**
 * AgentDock's own template shape (`agentId`, `nodes` with an `llm.<provider>` entry,
 * `nodeConfigurations`) converted to ours, with a map from our paths back to the paths of the
 * file as written, so errors still point into the user's file. What AgentDock accepts and we
 * accept without using is a warning, never an error: its templates must load unchanged.
 */
export interface ShapeConversion {
  readonly template: Record<string, unknown>;
  readonly issues: TemplateIssue[];
  readonly warnings: TemplateIssue[];
  readonly originalPath: (path: readonly PathSegment[]) => string;
}

const llmConfigKeys = ["model", "temperature", "maxTokens", "baseURL"] as const;

function keyVariable(provider: string): string {
  return apiKeyVariableFor(provider) ?? "the provider's key";
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
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

export function isAgentDockShape(input: unknown): input is Record<string, unknown> {
  return typeof input === "object" && input !== null && ("agentId" in input || "nodes" in input);
}

interface Collected {
  issues: TemplateIssue[];
  warnings: TemplateIssue[];
}

/**
 * Top-level keys and options AgentDock's schema lets through (its objects strip unknown keys)
 * that mean nothing here: removed before our schema sees them, each with a warning.
 */
function takeAcceptedExtras(
  rest: Record<string, unknown>,
  { issues, warnings }: Collected,
): Record<string, unknown> {
  const { notes, isEnabled, maxConcurrency, ...template } = rest;
  if (notes !== undefined) {
    warnings.push({ path: "notes", message: "kept for people reading the file; not used" });
  }
  if (isEnabled !== undefined) {
    if (typeof isEnabled !== "boolean") {
      issues.push({ path: "isEnabled", message: "expected true or false" });
    } else if (!isEnabled) {
      warnings.push({
        path: "isEnabled",
        message:
          "is false, but every template in an agents folder can start sessions here; move the folder out of the agents folder to disable the agent",
      });
    }
  }
  if (maxConcurrency !== undefined) {
    if (typeof maxConcurrency !== "number") {
      issues.push({ path: "maxConcurrency", message: "expected a number" });
    } else {
      warnings.push({
        path: "maxConcurrency",
        message:
          "has no effect: the tool calls of one model step run one at a time here, so a call cannot skip a sequence position",
      });
    }
  }
  if (isRecord(template.options)) {
    const known = ["maxSteps", "tokenOptimization"];
    const options: Record<string, unknown> = {};
    for (const [key, value] of Object.entries(template.options)) {
      // A near miss of a known option is a typo: our schema reports it with a suggestion.
      if (known.includes(key) || didYouMean(key, known) !== "") options[key] = value;
      else {
        warnings.push({
          path: formatPath(["options", key]),
          message: "has no effect here (AgentDock hands options to its own code)",
        });
      }
    }
    if ("tokenOptimization" in options) {
      warnings.push({
        path: "options.tokenOptimization",
        message:
          "has no effect here: what a model call re-sends is bounded by session.history instead",
      });
    }
    template.options = options;
  }
  if (isRecord(template.chatSettings) && "historyPolicy" in template.chatSettings) {
    warnings.push({
      path: "chatSettings.historyPolicy",
      message:
        "has no effect here: a model call re-sends the last session.history.recentTurns turns (default 10) and a summary of older ones",
    });
  }
  return template;
}

/** `nodeConfigurations["llm.<provider>"]` as our `llm` block. */
function llmBlock(
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

export function fromAgentDockShape(input: Record<string, unknown>): ShapeConversion {
  const collected: Collected = { issues: [], warnings: [] };
  const { issues } = collected;
  const { agentId, nodes, nodeConfigurations, ...rest } = input;
  const template = takeAcceptedExtras(rest, collected);
  if ("id" in input)
    issues.push({ path: "id", message: 'use either "agentId" (AgentDock) or "id", not both' });
  if (agentId !== undefined) template.id = agentId;

  const toolOrigins: number[] = [];
  let llmNodeIndex: number | undefined;
  let provider: string | undefined;
  if (!Array.isArray(nodes)) {
    issues.push({ path: "nodes", message: 'list the nodes, e.g. ["llm.openai", "think"]' });
  } else {
    const tools: unknown[] = [];
    nodes.forEach((node, index) => {
      if (typeof node === "string" && node.startsWith("llm.")) {
        if (provider !== undefined) {
          issues.push({
            path: `nodes[${index}]`,
            message: `only one llm.<provider> node is allowed (already "llm.${provider}")`,
          });
          return;
        }
        provider = node.slice("llm.".length);
        llmNodeIndex = index;
      } else {
        toolOrigins.push(index);
        tools.push(node);
      }
    });
    template.tools = tools;
  }

  const configs = isRecord(nodeConfigurations) ? nodeConfigurations : {};
  const llmKey = provider === undefined ? undefined : `llm.${provider}`;
  if (nodeConfigurations !== undefined && !isRecord(nodeConfigurations)) {
    issues.push({ path: "nodeConfigurations", message: "expected an object keyed by node name" });
  }
  for (const key of Object.keys(configs)) {
    if (key === llmKey) continue;
    if (!(Array.isArray(nodes) && nodes.includes(key))) {
      issues.push({
        path: formatPath(["nodeConfigurations", key]),
        message: `configures "${key}", which is not in "nodes"; add it to nodes or remove this entry`,
      });
    } else {
      collected.warnings.push({
        path: formatPath(["nodeConfigurations", key]),
        message: "has no effect here: tools take their settings from the worker's environment",
      });
    }
  }
  if (provider !== undefined && llmKey !== undefined) {
    template.llm = llmBlock(provider, llmKey, configs[llmKey], collected);
  }

  const originalPath = (path: readonly PathSegment[]): string => {
    const [head, second, ...tail] = path;
    if (head === "id") return formatPath(["agentId", ...path.slice(1)]);
    if (head === "tools" && typeof second === "number") {
      return formatPath(["nodes", toolOrigins[second] ?? second, ...tail]);
    }
    if (head === "tools") return "nodes";
    if (head === "llm" && second === "provider" && llmNodeIndex !== undefined)
      return `nodes[${llmNodeIndex}]`;
    if (head === "llm" && second === "providerOptions" && llmKey !== undefined) {
      return formatPath(["nodeConfigurations", llmKey, ...tail]);
    }
    if (head === "llm" && llmKey !== undefined) {
      return formatPath(["nodeConfigurations", llmKey, ...path.slice(1)]);
    }
    if (head === "llm") return "nodes";
    return formatPath(path);
  };
  return { template, issues, warnings: collected.warnings, originalPath };
}
