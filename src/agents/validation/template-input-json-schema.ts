import { z } from "zod";
import { agentTemplateSchema } from "../../orchestration/template-schema.ts";
import type { JsonSchema } from "./json-schema-keys.ts";

let cached: JsonSchema | undefined;

/** The template file format as JSON Schema (what a file may contain), built once. */
export function templateInputJsonSchema(): JsonSchema {
  cached ??= z.toJSONSchema(agentTemplateSchema, { io: "input", target: "draft-2020-12" });
  return cached;
}
