import { z } from "zod";
import { providerOptionKeys, providerOptionsSchemas } from "../../llm/provider-options.ts";
import type { AgentTemplate } from "../../orchestration/template-schema.ts";
import type { JsonSchema } from "./json-schema-keys.ts";
import type { CheckIssue } from "./template-checks.ts";
import type { TemplateIssue } from "./template-error.ts";
import type { PathSegment } from "./template-paths.ts";
import { toTemplateIssues } from "./zod-issues.ts";

const jsonSchemas = new Map<string, JsonSchema>();

function jsonSchemaOf(provider: AgentTemplate["llm"]["provider"]): JsonSchema {
  let schema = jsonSchemas.get(provider);
  if (schema === undefined) {
    schema = z.toJSONSchema(providerOptionsSchemas[provider], { io: "input" });
    jsonSchemas.set(provider, schema);
  }
  return schema;
}

const at: PathSegment[] = ["llm", "providerOptions"];

/**
 * `llm.providerOptions` against the provider's own schema (errors name the setting, as written in
 * the file), and warnings for settings that are accepted but do less here than in AgentDock.
 */
export function checkProviderOptions(
  template: AgentTemplate,
  format: (path: readonly PathSegment[]) => string,
): { errors: TemplateIssue[]; warnings: CheckIssue[] } {
  const { provider, providerOptions } = template.llm;
  if (providerOptions === undefined) return { errors: [], warnings: [] };
  if (providerOptionKeys(provider).length === 0 && Object.keys(providerOptions).length > 0) {
    const message = `the ${provider} model takes no provider options; remove llm.providerOptions`;
    return { errors: [{ path: format(at), message }], warnings: [] };
  }
  const parsed = providerOptionsSchemas[provider].safeParse(providerOptions);
  if (!parsed.success) {
    const errors = toTemplateIssues(parsed.error, jsonSchemaOf(provider), providerOptions, (path) =>
      format([...at, ...path]),
    );
    return { errors, warnings: [] };
  }
  const warnings: CheckIssue[] = [];
  const options: Record<string, unknown> = parsed.data;
  if (provider === "gemini" && options.useSearchGrounding === true && template.tools.length > 0) {
    warnings.push({
      path: [...at, "useSearchGrounding"],
      message:
        "applies only to model calls that offer no tools: Gemini models before 3 cannot combine Google Search with the agent's tools, so calls that offer tools go without it",
    });
  }
  if (provider === "gemini" && options.dynamicRetrievalConfig !== undefined) {
    warnings.push({
      path: [...at, "dynamicRetrievalConfig"],
      message: "has no effect: Gemini's Google Search tool decides by itself when to search",
    });
  }
  if (provider === "deepseek" && options.safetySettings !== undefined) {
    warnings.push({
      path: [...at, "safetySettings"],
      message: "has no effect: DeepSeek's API has no safety settings",
    });
  }
  return { errors: [], warnings };
}
