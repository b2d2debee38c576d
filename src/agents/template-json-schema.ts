import { templateInputJsonSchema } from "./validation/template-input-json-schema.ts";

/** Where the generated schema lives; shipped templates point at it with `$schema`. */
export const templateJsonSchemaFile = "agents/template.schema.json";

/** The JSON Schema of the template file format, generated from the zod schema (input side). */
export function templateJsonSchema(): Record<string, unknown> {
  return {
    ...templateInputJsonSchema(),
    title: "agentdock-temporal agent template",
    description:
      "An agent: persona, model, tools and orchestration steps. Generated from src/orchestration/template-schema.ts by `npm run schema`; do not edit.",
  };
}

/** The schema as committed: stable formatting so staleness is a plain text comparison. */
export function templateJsonSchemaText(): string {
  return `${JSON.stringify(templateJsonSchema(), null, 2)}\n`;
}
