import type { JSONSchema7, JSONSchema7Definition } from "@ai-sdk/provider";

/** Texts the scripted model fills string properties with. */
export interface InputTexts {
  /** For subject-like properties: the request itself, short. */
  subject: string;
  /** For every other string: a few sentences written for this call. */
  body: string;
}

/** Properties that name what a tool works on get the user's words; other strings get the body. */
export const subjectProperties: ReadonlySet<string> = new Set([
  "topic",
  "subject",
  "challenge",
  "query",
  "question",
  "text",
  "focus",
]);

const maxDepth = 5;

/**
 * Builds arguments from a tool's JSON schema: every required property gets a value, optional ones
 * are left out. Strings: subject or body text (an `enum` or `const` wins, `maxLength` is kept);
 * numbers and integers: `default`, else `minimum`, else just above `exclusiveMinimum`, else 1;
 * booleans: `default` or false; arrays: `minItems` items; objects: their required properties.
 */
export function buildToolInput(schema: JSONSchema7, texts: InputTexts): Record<string, unknown> {
  const value = buildValue(schema, "", texts, 0);
  return typeof value === "object" && value !== null && !Array.isArray(value)
    ? (value as Record<string, unknown>)
    : {};
}

export function buildValue(
  definition: JSONSchema7Definition,
  key: string,
  texts: InputTexts,
  depth: number,
): unknown {
  if (typeof definition === "boolean") return stringFor(key, texts, undefined);
  const schema = definition;
  if (schema.const !== undefined) return schema.const;
  if (schema.enum !== undefined && schema.enum.length > 0) return schema.enum[0];
  const variant = firstVariant(schema);
  if (variant !== undefined) return buildValue(variant, key, texts, depth);

  switch (primaryType(schema)) {
    case "string":
      return stringFor(key, texts, schema.maxLength);
    case "integer":
      return numberFor(schema, true);
    case "number":
      return numberFor(schema, false);
    case "boolean":
      return typeof schema.default === "boolean" ? schema.default : false;
    case "null":
      return null;
    case "array":
      return arrayFor(schema, key, texts, depth);
    case "object":
      return objectFor(schema, texts, depth);
    default:
      return stringFor(key, texts, undefined);
  }
}

function firstVariant(schema: JSONSchema7): JSONSchema7Definition | undefined {
  const variants = schema.anyOf ?? schema.oneOf ?? schema.allOf;
  if (variants === undefined) return undefined;
  return variants.find((v) => typeof v === "boolean" || v.type !== "null") ?? variants[0];
}

function primaryType(schema: JSONSchema7): string | undefined {
  const types = Array.isArray(schema.type) ? schema.type : [schema.type];
  const chosen = types.find((type) => type !== undefined && type !== "null") ?? types[0];
  if (chosen !== undefined) return chosen;
  return schema.properties === undefined ? undefined : "object";
}

function stringFor(key: string, texts: InputTexts, maxLength: number | undefined): string {
  const text = subjectProperties.has(key.toLowerCase()) ? texts.subject : texts.body;
  return maxLength === undefined ? text : text.slice(0, maxLength);
}

function numberFor(schema: JSONSchema7, integer: boolean): number {
  if (typeof schema.default === "number") return schema.default;
  if (schema.minimum !== undefined) return integer ? Math.ceil(schema.minimum) : schema.minimum;
  if (schema.exclusiveMinimum !== undefined) return Math.floor(schema.exclusiveMinimum) + 1;
  return 1;
}

function arrayFor(schema: JSONSchema7, key: string, texts: InputTexts, depth: number): unknown[] {
  if (Array.isArray(schema.default)) return schema.default;
  const count = schema.minItems ?? 0;
  const items = Array.isArray(schema.items) ? schema.items[0] : schema.items;
  if (count === 0 || items === undefined || depth >= maxDepth) return [];
  return Array.from({ length: count }, () => buildValue(items, key, texts, depth + 1));
}

function objectFor(schema: JSONSchema7, texts: InputTexts, depth: number): Record<string, unknown> {
  const result: Record<string, unknown> = {};
  if (depth >= maxDepth) return result;
  for (const name of schema.required ?? []) {
    const property = schema.properties?.[name] ?? true;
    result[name] = buildValue(property, name, texts, depth + 1);
  }
  return result;
}
