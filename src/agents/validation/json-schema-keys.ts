import type { PathSegment } from "./template-paths.ts";

/** A JSON Schema document or subschema, as `z.toJSONSchema` writes it. */
export type JsonSchema = Readonly<Record<string, unknown>>;

function isSchema(value: unknown): value is JsonSchema {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

function schemas(value: unknown): JsonSchema[] {
  return Array.isArray(value) ? value.filter(isSchema) : [];
}

/** `#/$defs/x` and `#` references, the only kind a generated schema holds. */
function resolveRef(root: JsonSchema, ref: string): JsonSchema | undefined {
  if (!ref.startsWith("#")) return undefined;
  let current: unknown = root;
  for (const part of ref
    .slice(1)
    .split("/")
    .filter((p) => p !== "")) {
    current = isSchema(current) ? current[decodeURIComponent(part)] : undefined;
  }
  return isSchema(current) ? current : undefined;
}

/** Whether a union branch's `type` constant (if it has one) accepts the input's `type`. */
function branchAccepts(branch: JsonSchema, input: unknown): boolean {
  const properties = branch.properties;
  const typeSchema = isSchema(properties) ? properties.type : undefined;
  if (!isSchema(typeSchema) || !isSchema(input) || !("type" in input)) return true;
  if ("const" in typeSchema) return typeSchema.const === input.type;
  return Array.isArray(typeSchema.enum) ? typeSchema.enum.includes(input.type) : true;
}

/** The alternatives a subschema stands for, references and unions expanded. */
function expand(root: JsonSchema, schema: JsonSchema, input: unknown, depth = 0): JsonSchema[] {
  if (depth > 32) return [];
  if (typeof schema.$ref === "string") {
    const target = resolveRef(root, schema.$ref);
    return target === undefined ? [] : expand(root, target, input, depth + 1);
  }
  const branches = [...schemas(schema.anyOf), ...schemas(schema.oneOf), ...schemas(schema.allOf)];
  if (branches.length === 0) return [schema];
  const matching = branches.filter((branch) => branchAccepts(branch, input));
  return (matching.length > 0 ? matching : branches).flatMap((branch) =>
    expand(root, branch, input, depth + 1),
  );
}

/**
 * The keys the object at `path` may have, as the template's JSON Schema declares them; where a
 * union could lead to several objects (conditions), those whose `type` fits the input.
 */
export function allowedKeysAt(
  root: JsonSchema,
  path: readonly PathSegment[],
  input: unknown,
): string[] {
  let current: { schema: JsonSchema; value: unknown }[] = [{ schema: root, value: input }];
  for (const segment of path) {
    current = current.flatMap(({ schema, value }) => {
      const child: unknown =
        isSchema(value) || Array.isArray(value)
          ? (value as Record<PathSegment, unknown>)[segment]
          : undefined;
      return expand(root, schema, value).flatMap((option) => {
        const next =
          typeof segment === "string"
            ? isSchema(option.properties)
              ? option.properties[segment]
              : undefined
            : option.items;
        return isSchema(next) ? [{ schema: next, value: child }] : [];
      });
    });
  }
  const keys = current.flatMap(({ schema, value }) =>
    expand(root, schema, value).flatMap((option) =>
      isSchema(option.properties) ? Object.keys(option.properties) : [],
    ),
  );
  return [...new Set(keys)];
}
