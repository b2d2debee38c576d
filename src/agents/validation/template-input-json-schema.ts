import { z } from "zod";
import { agentTemplateSchema } from "../../orchestration/template-schema.ts";
import type { JsonSchema } from "./json-schema-keys.ts";

let cached: JsonSchema | undefined;

/** The template file format as JSON Schema (what a file may contain), built once. */
export function templateInputJsonSchema(): JsonSchema {
  cached ??= z.toJSONSchema(agentTemplateSchema, { io: "input", target: "draft-2020-12" });
  return cached;
}

let agentDockCached: JsonSchema | undefined;

/**
 * The same format as AgentDock writes it: `agentId`, `nodes` and `nodeConfigurations` instead of
 * `id`, `tools` and `llm`, and the keys AgentDock's files carry that mean nothing here. Only the
 * top-level key names matter (for "allowed here" and "did you mean"); the rest is ours.
 */
export function agentDockInputJsonSchema(): JsonSchema {
  if (agentDockCached !== undefined) return agentDockCached;
  const ours = templateInputJsonSchema();
  const properties = (ours.properties ?? {}) as Record<string, unknown>;
  const { id: _id, tools: _tools, llm: _llm, ...rest } = properties;
  agentDockCached = {
    ...ours,
    properties: {
      agentId: {},
      nodes: {},
      nodeConfigurations: {},
      ...rest,
      notes: {},
      isEnabled: {},
      maxConcurrency: {},
    },
  };
  return agentDockCached;
}
