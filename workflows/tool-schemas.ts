import { asSchema, type FlexibleSchema, type Schema, type ToolSet } from "ai";

/**
 * Each tool input schema as the AI SDK's `Schema`, made once per workflow context. Given a zod
 * schema, the AI SDK wraps it anew on every model call and converts it to JSON Schema again
 * (zod's `toJSONSchema`: 7% of a replay's CPU before the stack-trace hook, measured on the
 * 500-turn growth session); its wrapper computes the JSON Schema lazily and keeps it, so one
 * wrapper per schema converts it once. The built-in tools' schemas are module constants, so
 * they are converted once per worker thread; a plug-in's JSON schema is already a wrapper.
 */
const prepared = new WeakMap<FlexibleSchema, Schema>();

function preparedSchema(inputSchema: FlexibleSchema): Schema {
  let schema = prepared.get(inputSchema);
  if (schema === undefined) {
    schema = asSchema(inputSchema);
    prepared.set(inputSchema, schema);
  }
  return schema;
}

/** The same tools, each with its input schema prepared once (same JSON Schema, same checks). */
export function withPreparedSchemas(tools: ToolSet): ToolSet {
  const result: ToolSet = {};
  for (const [name, tool] of Object.entries(tools)) {
    result[name] = { ...tool, inputSchema: preparedSchema(tool.inputSchema) };
  }
  return result;
}
