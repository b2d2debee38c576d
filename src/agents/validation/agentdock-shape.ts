import type { TemplateIssue } from "./template-error.ts";
import { formatPath, type PathSegment } from "./template-paths.ts";

/**
 * AgentDock's own template shape (`agentId`, `nodes` with an `llm.<provider>` entry,
 * `nodeConfigurations`) converted to ours, with a map from our paths back to the paths of the
 * file as written, so errors still point into the user's file.
 */
export interface ShapeConversion {
  readonly template: Record<string, unknown>;
  readonly issues: TemplateIssue[];
  readonly originalPath: (path: readonly PathSegment[]) => string;
}

const llmConfigKeys: Record<string, string> = {
  model: "model",
  temperature: "temperature",
  maxTokens: "maxTokens",
  baseURL: "baseURL",
};
// Accepted for compatibility, not used: keys always come from the environment.
const ignoredLlmConfigKeys = new Set(["useCustomApiKey"]);

export function isAgentDockShape(input: unknown): input is Record<string, unknown> {
  return typeof input === "object" && input !== null && ("agentId" in input || "nodes" in input);
}

export function fromAgentDockShape(input: Record<string, unknown>): ShapeConversion {
  const issues: TemplateIssue[] = [];
  const { agentId, nodes, nodeConfigurations, ...rest } = input;
  const template: Record<string, unknown> = { ...rest };
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

  const configs = (
    typeof nodeConfigurations === "object" && nodeConfigurations !== null ? nodeConfigurations : {}
  ) as Record<string, unknown>;
  const llmKey = provider === undefined ? undefined : `llm.${provider}`;
  if (
    nodeConfigurations !== undefined &&
    (typeof nodeConfigurations !== "object" || nodeConfigurations === null)
  ) {
    issues.push({ path: "nodeConfigurations", message: "expected an object keyed by node name" });
  }
  for (const key of Object.keys(configs)) {
    if (key !== llmKey && !(Array.isArray(nodes) && nodes.includes(key))) {
      issues.push({
        path: formatPath(["nodeConfigurations", key]),
        message: `configures "${key}", which is not in "nodes"; add it to nodes or remove this entry`,
      });
    }
  }
  if (provider !== undefined && llmKey !== undefined) {
    const llm: Record<string, unknown> = { provider };
    const config = configs[llmKey];
    if (typeof config === "object" && config !== null) {
      for (const [key, value] of Object.entries(config)) {
        if (key === "apiKey") {
          issues.push({
            path: formatPath(["nodeConfigurations", llmKey, key]),
            message:
              "API keys are never stored in templates; set the provider's key in the environment instead",
          });
        } else if (key in llmConfigKeys) {
          llm[llmConfigKeys[key] ?? key] = value;
        } else if (!ignoredLlmConfigKeys.has(key)) {
          issues.push({
            path: formatPath(["nodeConfigurations", llmKey, key]),
            message: `unknown model setting "${key}" (allowed: ${[...Object.keys(llmConfigKeys), ...ignoredLlmConfigKeys].join(", ")})`,
          });
        }
      }
    }
    if (llm.model === undefined) llm.model = provider === "scripted" ? "auto" : undefined;
    template.llm = llm;
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
    if (head === "llm" && llmKey !== undefined) {
      return formatPath(["nodeConfigurations", llmKey, ...path.slice(1)]);
    }
    if (head === "llm") return "nodes";
    return formatPath(path);
  };
  return { template, issues, originalPath };
}
