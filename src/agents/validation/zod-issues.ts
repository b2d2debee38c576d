import type { z } from "zod";
import type { TemplateIssue } from "./template-error.ts";
import { didYouMean, formatPath, type PathSegment } from "./template-paths.ts";

interface SchemaDef {
  type: string;
  values?: unknown[];
  entries?: Record<string, unknown>;
  shape?: Record<string, z.ZodType>;
  element?: z.ZodType;
  innerType?: z.ZodType;
  in?: z.ZodType;
  options?: z.ZodType[];
}

function defOf(schema: z.ZodType): SchemaDef {
  return (schema as unknown as { _zod: { def: SchemaDef } })._zod.def;
}

/** Whether an object option's `type` literal (if it has one) accepts the input's `type`. */
function optionAccepts(option: z.ZodType, input: unknown): boolean {
  const def = defOf(option);
  const literal = def.type === "object" ? def.shape?.["type"] : undefined;
  if (literal === undefined || typeof input !== "object" || input === null || !("type" in input))
    return true;
  const values = defOf(literal).values;
  return values === undefined || values.includes(input.type);
}

/** The object schemas a path can lead to (several through unions, narrowed by the input's `type`). */
function objectSchemasAt(
  schema: z.ZodType,
  path: readonly PathSegment[],
  input?: unknown,
): SchemaDef[] {
  const def = defOf(schema);
  switch (def.type) {
    case "optional":
    case "default":
    case "nullable":
    case "readonly":
    case "prefault":
    case "nonoptional":
      return def.innerType ? objectSchemasAt(def.innerType, path, input) : [];
    case "pipe":
      return def.in ? objectSchemasAt(def.in, path, input) : [];
    case "union": {
      const options = def.options ?? [];
      const matching =
        path.length === 0 ? options.filter((option) => optionAccepts(option, input)) : options;
      return (matching.length > 0 ? matching : options).flatMap((option) =>
        objectSchemasAt(option, path, input),
      );
    }
    default:
      break;
  }
  const [head, ...rest] = path;
  if (head === undefined) return def.type === "object" ? [def] : [];
  const child =
    input !== null && typeof input === "object"
      ? (input as Record<PathSegment, unknown>)[head]
      : undefined;
  if (def.type === "object" && typeof head === "string") {
    const next = def.shape?.[head];
    return next ? objectSchemasAt(next, rest, child) : [];
  }
  if (def.type === "array" && typeof head === "number" && def.element) {
    return objectSchemasAt(def.element, rest, child);
  }
  return [];
}

function knownKeysAt(schema: z.ZodType, path: readonly PathSegment[], input: unknown): string[] {
  const keys = objectSchemasAt(schema, path, input).flatMap((def) => Object.keys(def.shape ?? {}));
  return [...new Set(keys)].filter((key) => key !== "$schema");
}

/** Literal and enum values a union position accepts (for "did you mean"). */
function literalValuesAt(schema: z.ZodType): string[] {
  const def = defOf(schema);
  if (def.type === "literal") return (def.values ?? []).map(String);
  if (def.type === "enum") return Object.values(def.entries ?? {}).map(String);
  if (def.type === "union") return (def.options ?? []).flatMap(literalValuesAt);
  if (def.innerType) return literalValuesAt(def.innerType);
  return [];
}

function schemaAt(schema: z.ZodType, path: readonly PathSegment[]): z.ZodType | undefined {
  const def = defOf(schema);
  if (def.innerType) return schemaAt(def.innerType, path);
  if (def.type === "pipe" && def.in) return schemaAt(def.in, path);
  const [head, ...rest] = path;
  if (head === undefined) return schema;
  if (def.type === "object" && typeof head === "string" && def.shape?.[head]) {
    return schemaAt(def.shape[head], rest);
  }
  if (def.type === "array" && typeof head === "number" && def.element)
    return schemaAt(def.element, rest);
  return undefined;
}

function valueAt(input: unknown, path: readonly PathSegment[]): unknown {
  let current = input;
  for (const segment of path) {
    if (current === null || typeof current !== "object") return undefined;
    current = (current as Record<PathSegment, unknown>)[segment];
  }
  return current;
}

function describeValue(value: unknown): string {
  if (value === null) return "null";
  if (Array.isArray(value)) return "a list";
  return typeof value === "string" ? `the string ${JSON.stringify(value)}` : typeof value;
}

function messageFor(issue: z.core.$ZodIssue, schema: z.ZodType, input: unknown): string {
  const path = issue.path as PathSegment[];
  switch (issue.code) {
    case "invalid_type":
      if (valueAt(input, path) === undefined) return `required: add a ${issue.expected} here`;
      return `expected ${issue.expected}, got ${describeValue(valueAt(input, path))}`;
    case "invalid_union": {
      const discriminator = (issue as { discriminator?: string }).discriminator;
      if (discriminator !== undefined) {
        const objectPath = path.at(-1) === discriminator ? path.slice(0, -1) : path;
        const value = valueAt(input, [...objectPath, discriminator]);
        const known = objectSchemasAt(schema, objectPath).flatMap((def) => {
          const literal = def.shape?.[discriminator];
          const values = literal ? (defOf(literal) as { values?: unknown[] }).values : undefined;
          return (values ?? []).map(String);
        });
        if (value === undefined) return `add a "${discriminator}" (one of: ${known.join(", ")})`;
        const shown = typeof value === "string" ? `"${value}"` : describeValue(value);
        const hint = typeof value === "string" ? didYouMean(value, known) : "";
        return `unknown ${discriminator} ${shown}${hint} (known: ${known.join(", ")})`;
      }
      const value = valueAt(input, path);
      const unionSchema = schemaAt(schema, path);
      const accepted = unionSchema ? literalValuesAt(unionSchema) : [];
      if (typeof value === "string" && accepted.length > 0) {
        return `unknown value "${value}"${didYouMean(value, accepted)} (expected one of: ${accepted.join(", ")}, or an object)`;
      }
      const nested = issue.errors.flat()[0];
      return nested
        ? messageFor({ ...nested, path: [...path, ...nested.path] }, schema, input)
        : issue.message;
    }
    case "invalid_value": {
      const value = valueAt(input, path);
      const hint = typeof value === "string" ? didYouMean(value, issue.values.map(String)) : "";
      return `${issue.message.replace(/^Invalid (option|input): /, "")}, got ${describeValue(value)}${hint}`;
    }
    default:
      return issue.message;
  }
}

/** zod issues as template issues: formatted paths and messages that say how to fix them. */
export function toTemplateIssues(
  error: z.ZodError,
  schema: z.ZodType,
  input: unknown,
  format: (path: readonly PathSegment[]) => string = formatPath,
): TemplateIssue[] {
  return error.issues.flatMap((issue): TemplateIssue[] => {
    const path = [...issue.path] as PathSegment[];
    if (issue.code === "unrecognized_keys") {
      const known = knownKeysAt(schema, path, input);
      return issue.keys.map((key) => ({
        path: format([...path, key]),
        message: `unknown key "${key}"${didYouMean(key, known)} (allowed here: ${known.join(", ")})`,
      }));
    }
    if (
      typeof valueAt(input, path) === "string" &&
      issue.code === "invalid_union" &&
      !("discriminator" in issue)
    ) {
      return [{ path: format(path), message: messageFor(issue, schema, input) }];
    }
    if (issue.code === "invalid_union" && issue.errors.length > 0 && !("discriminator" in issue)) {
      // Report the most specific failure: the branch that got furthest.
      const deepest = issue.errors
        .flat()
        .reduce((best, next) => (next.path.length > best.path.length ? next : best));
      const nestedPath = [...path, ...(deepest.path as PathSegment[])];
      return [
        {
          path: format(nestedPath),
          message: messageFor({ ...deepest, path: nestedPath }, schema, input),
        },
      ];
    }
    return [{ path: format(path), message: messageFor(issue, schema, input) }];
  });
}
