export {
  listAgentIds,
  listAgents,
  loadAgent,
  loadTemplateFile,
  type AgentListing,
  type LoadedAgent,
  type LoadOptions,
  type SkippedEntry,
} from "./load-agent.ts";
export { MAX_TEMPLATE_FILE_BYTES, TemplateTooLargeError } from "./template-too-large-error.ts";
export {
  templateJsonSchema,
  templateJsonSchemaFile,
  templateJsonSchemaText,
} from "./template-json-schema.ts";
export {
  parseAgentTemplate,
  TemplateError,
  type ParseTemplateOptions,
  type TemplateIssue,
} from "./validation/index.ts";
export { templateVersion } from "./template-version.ts";
