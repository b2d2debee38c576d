import { takeAcceptedExtras } from "./agentdock-extras.ts";
import { llmBlock } from "./agentdock-llm-block.ts";
import { isRecord } from "./is-record.ts";
import type { TemplateIssue } from "./template-error.ts";
import { formatPath, type PathSegment } from "./template-paths.ts";

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

/** Problems and warnings found while converting, in the file's own paths. */
export interface Collected {
  issues: TemplateIssue[];
  warnings: TemplateIssue[];
}

export function isAgentDockShape(input: unknown): input is Record<string, unknown> {
  return typeof input === "object" && input !== null && ("agentId" in input || "nodes" in input);
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
