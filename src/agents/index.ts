export {
  listAgentIds,
  listAgents,
  loadAgent,
  loadTemplateFile,
  type AgentListing,
  type LoadedAgent,
  type LoadOptions,
} from "./load-agent.ts";
export {
  templateJsonSchema,
  templateJsonSchemaFile,
  templateJsonSchemaText,
} from "./template-json-schema.ts";
