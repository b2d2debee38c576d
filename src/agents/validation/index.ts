export { parseAgentTemplate, type ParseTemplateOptions } from "./parse-template.ts";
export { TemplateError, type TemplateIssue } from "./template-error.ts";
