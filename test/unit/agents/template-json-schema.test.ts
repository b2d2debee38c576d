import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { describe, it } from "node:test";
import {
  listAgentIds,
  templateJsonSchema,
  templateJsonSchemaFile,
  templateJsonSchemaText,
} from "../../../src/agents/index.ts";

const root = new URL("../../../", import.meta.url);
const agentsDir = fileURLToPath(new URL("agents/", root));
const committedText = readFileSync(new URL(templateJsonSchemaFile, root), "utf8");
const committed = JSON.parse(committedText) as JsonSchema;

interface JsonSchema {
  type?: string;
  properties?: Record<string, JsonSchema>;
  required?: string[];
  additionalProperties?: boolean | JsonSchema;
  items?: JsonSchema;
  anyOf?: JsonSchema[];
  oneOf?: JsonSchema[];
  enum?: unknown[];
  const?: unknown;
  pattern?: string;
  minLength?: number;
  maxLength?: number;
  minimum?: number;
  maximum?: number;
  minItems?: number;
}

function hasType(value: unknown, type: string): boolean {
  switch (type) {
    case "object":
      return typeof value === "object" && value !== null && !Array.isArray(value);
    case "array":
      return Array.isArray(value);
    case "integer":
      return Number.isInteger(value);
    case "null":
      return value === null;
    default:
      return typeof value === type;
  }
}

/**
 * A structural JSON Schema check covering the keywords the generated schema uses (type,
 * properties, required, additionalProperties, items, anyOf, oneOf, enum, const, string and number
 * bounds). Enough to show a shipped template is what editors will accept; no schema library.
 */
function validate(schema: JsonSchema, value: unknown, path = "(root)"): string[] {
  const errors: string[] = [];
  if (schema.anyOf && !schema.anyOf.some((option) => validate(option, value, path).length === 0))
    errors.push(`${path}: matches none of the anyOf options`);
  if (schema.oneOf) {
    const matches = schema.oneOf.filter((option) => validate(option, value, path).length === 0);
    if (matches.length !== 1) errors.push(`${path}: matches ${matches.length} oneOf options`);
  }
  if ("const" in schema && value !== schema.const)
    errors.push(`${path}: expected ${JSON.stringify(schema.const)}`);
  if (schema.enum && !schema.enum.includes(value))
    errors.push(`${path}: expected one of ${JSON.stringify(schema.enum)}`);
  if (schema.type !== undefined && !hasType(value, schema.type)) {
    errors.push(`${path}: expected ${schema.type}`);
    return errors;
  }
  if (typeof value === "string") {
    if (schema.minLength !== undefined && value.length < schema.minLength)
      errors.push(`${path}: shorter than ${schema.minLength}`);
    if (schema.maxLength !== undefined && value.length > schema.maxLength)
      errors.push(`${path}: longer than ${schema.maxLength}`);
    if (schema.pattern !== undefined && !new RegExp(schema.pattern, "u").test(value))
      errors.push(`${path}: does not match ${schema.pattern}`);
  }
  if (typeof value === "number") {
    if (schema.minimum !== undefined && value < schema.minimum)
      errors.push(`${path}: below ${schema.minimum}`);
    if (schema.maximum !== undefined && value > schema.maximum)
      errors.push(`${path}: above ${schema.maximum}`);
  }
  if (Array.isArray(value)) {
    if (schema.minItems !== undefined && value.length < schema.minItems)
      errors.push(`${path}: fewer than ${schema.minItems} items`);
    const items = schema.items;
    if (items)
      value.forEach((item, index) => errors.push(...validate(items, item, `${path}[${index}]`)));
  }
  if (hasType(value, "object")) {
    const object = value as Record<string, unknown>;
    for (const key of schema.required ?? []) {
      if (!(key in object)) errors.push(`${path}: missing required "${key}"`);
    }
    for (const [key, child] of Object.entries(object)) {
      const property = schema.properties?.[key];
      const childPath = path === "(root)" ? key : `${path}.${key}`;
      if (property) errors.push(...validate(property, child, childPath));
      else if (schema.additionalProperties === false) errors.push(`${path}: unknown key "${key}"`);
      else if (typeof schema.additionalProperties === "object")
        errors.push(...validate(schema.additionalProperties, child, childPath));
    }
  }
  return errors;
}

describe("template JSON schema", () => {
  it("is committed exactly as `npm run schema` writes it", () => {
    const stale = `${templateJsonSchemaFile} is stale: run \`npm run schema\``;
    // Content first: its diff names the stale keys; then the exact text the script writes.
    assert.deepEqual(committed, templateJsonSchema(), stale);
    assert.equal(committedText, templateJsonSchemaText(), stale);
  });

  it("describes the template's top level: required id and name, no other keys", () => {
    const schema = templateJsonSchema() as JsonSchema;
    assert.deepEqual(schema.required, ["id", "name"]);
    assert.equal(schema.additionalProperties, false);
    assert.deepEqual(Object.keys(schema.properties ?? {}), [
      "$schema",
      "id",
      "name",
      "description",
      "personality",
      "llm",
      "tools",
      "options",
      "session",
      "orchestration",
      "version",
      "tags",
      "priority",
      "chatSettings",
    ]);
  });

  for (const id of listAgentIds([agentsDir])) {
    it(`accepts the shipped ${id} template`, () => {
      const template = JSON.parse(
        readFileSync(new URL(`agents/${id}/template.json`, root), "utf8"),
      ) as unknown;
      assert.deepEqual(validate(committed, template), []);
    });
  }

  it("accepts the native-shape test fixture", () => {
    const fixture = JSON.parse(
      readFileSync(
        new URL("test/fixtures/agentdock-shape/cognitive-reasoner.native.json", root),
        "utf8",
      ),
    ) as unknown;
    assert.deepEqual(validate(committed, fixture), []);
  });

  it("rejects missing required keys, unknown keys and wrong values (the check above can fail)", () => {
    const template = {
      $schema: "../template.schema.json",
      name: "",
      personalty: "Curious.",
      orchestration: {
        enforcement: "strikt",
        steps: [{ name: "Plan", conditions: [{ type: "tool_use", value: "think" }] }],
      },
    };
    assert.deepEqual(validate(committed, template), [
      '(root): missing required "id"',
      "name: shorter than 1",
      '(root): unknown key "personalty"',
      'orchestration.enforcement: expected one of ["strict","guide"]',
      "orchestration.steps[0].conditions[0]: matches 0 oneOf options",
    ]);
  });
});
