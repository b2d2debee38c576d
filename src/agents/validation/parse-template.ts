import { agentDockToolNames } from "./agentdock-tools.ts";
import { fromAgentDockShape, isAgentDockShape } from "./agentdock-shape.ts";
import { checkProviderOptions } from "./provider-options-check.ts";
import { checkTemplate } from "./template-checks.ts";
import { TemplateError, type TemplateIssue } from "./template-error.ts";
import { formatPath, type PathSegment } from "./template-paths.ts";
import { agentTemplateSchema, type AgentTemplate } from "../../orchestration/template-schema.ts";
import type { ToolCatalogueEntry } from "../../orchestration/tool-catalogue-entry.ts";
import { toTemplateIssues } from "./zod-issues.ts";
import { isMcpToolName } from "../../mcp/mcp-tool-names.ts";
import { agentDockInputJsonSchema, templateInputJsonSchema } from "./template-input-json-schema.ts";

export interface ParseTemplateOptions {
  /** The tool catalogue: checks tool names and expands patterns. */
  tools?: readonly ToolCatalogueEntry[];
  /** Problems that do not stop loading (a step that can never become active, say). */
  onWarning?: (warning: TemplateIssue) => void;
  /** Names the file in the error message. */
  source?: string;
  /**
   * AgentDock tools the template names that the catalogue lacks (the template loads; those tools
   * are never offered). Without this option they are refused like any unknown tool.
   */
  onMissingTools?: (tools: readonly string[]) => void;
}

/**
 * Validates a template in our shape or AgentDock's and returns it normalised: sequence positions
 * as lists of alternatives, `isDefault` resolved into `orchestration.defaultStep`, defaults filled.
 * Throws `TemplateError` listing every problem, each with the path as written in the file.
 */
export function parseAgentTemplate(
  json: unknown,
  options: ParseTemplateOptions = {},
): AgentTemplate {
  let input = json;
  let originalPath: (path: readonly PathSegment[]) => string = formatPath;
  let jsonSchema = templateInputJsonSchema();
  const issues: TemplateIssue[] = [];
  const warnings: TemplateIssue[] = [];
  if (typeof json !== "object" || json === null || Array.isArray(json)) {
    throw new TemplateError([{ path: "", message: "a template is a JSON object" }], options.source);
  }
  if (isAgentDockShape(json)) {
    const converted = fromAgentDockShape(json);
    input = converted.template;
    originalPath = converted.originalPath;
    issues.push(...converted.issues);
    warnings.push(...converted.warnings);
    jsonSchema = agentDockInputJsonSchema();
  }

  const parsed = agentTemplateSchema.safeParse(input);
  if (!parsed.success) {
    issues.push(...toTemplateIssues(parsed.error, jsonSchema, input, originalPath));
    throw new TemplateError(issues, options.source);
  }
  const template = parsed.data;
  const checked = checkTemplate(template, options.tools);
  const providerOptions = checkProviderOptions(template, originalPath);
  issues.push(
    ...providerOptions.errors,
    ...checked.errors.map((issue) => ({ path: originalPath(issue.path), message: issue.message })),
  );
  for (const name of options.onMissingTools === undefined ? checked.missingTools : []) {
    const index = template.tools.indexOf(name);
    issues.push({
      path: originalPath(["tools", index]),
      message: agentDockToolNames.has(name)
        ? `"${name}" is an AgentDock tool this project does not have`
        : isMcpToolName(name)
          ? `"${name}" is a tool of an MCP server not configured here; name the server in the file AGENTDOCK_MCP_SERVERS points to`
          : `"${name}" is neither a built-in tool nor a plug-in installed here (AGENTDOCK_TOOL_DIRS, AGENTDOCK_TOOL_MODULES)`,
    });
  }
  if (issues.length > 0) throw new TemplateError(issues, options.source);
  for (const warning of [
    ...warnings,
    ...[...providerOptions.warnings, ...checked.warnings].map((issue) => ({
      path: originalPath(issue.path),
      message: issue.message,
    })),
  ]) {
    options.onWarning?.(warning);
  }
  if (checked.missingTools.length > 0) options.onMissingTools?.(checked.missingTools);
  return normalise(template, checked.tools);
}

function normalise(template: AgentTemplate, tools: string[]): AgentTemplate {
  const { orchestration } = template;
  const defaultStep =
    orchestration.defaultStep ?? orchestration.steps.find((step) => step.isDefault === true)?.name;
  const { $schema: _schema, ...rest } = template;
  return {
    ...rest,
    tools,
    orchestration: {
      ...orchestration,
      ...(defaultStep === undefined ? {} : { defaultStep }),
    },
  };
}
