import type { z } from "zod";
import { allowedKeysAt, type JsonSchema } from "./json-schema-keys.ts";
import type { TemplateIssue } from "./template-error.ts";
import { didYouMean, formatPath, type PathSegment } from "./template-paths.ts";

// Messages come from what zod's issues carry publicly (code, path, expected, values, keys,
// options, nested errors) and the input itself; the keys an object allows come from the
// template's published JSON Schema. Nothing here reads zod's internals.

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

type Issue = z.core.$ZodIssue;

/** Literal values the branches of a failed union accept, from their own issues. */
function acceptedLiterals(errors: readonly (readonly Issue[])[]): string[] {
  const values = errors.flatMap((branch) =>
    branch.flatMap((issue) =>
      issue.code === "invalid_value" && issue.path.length === 0 ? issue.values.map(String) : [],
    ),
  );
  return [...new Set(values)];
}

function unknownDiscriminator(
  issue: Extract<Issue, { code: "invalid_union" }>,
  path: PathSegment[],
  input: unknown,
): string | undefined {
  const { discriminator, options } = issue as { discriminator?: unknown; options?: unknown };
  if (typeof discriminator !== "string" || !Array.isArray(options)) return undefined;
  const known = options.map(String);
  const objectPath = path.at(-1) === discriminator ? path.slice(0, -1) : path;
  const value = valueAt(input, [...objectPath, discriminator]);
  if (value === undefined) return `add a "${discriminator}" (one of: ${known.join(", ")})`;
  const shown = typeof value === "string" ? `"${value}"` : describeValue(value);
  const hint = typeof value === "string" ? didYouMean(value, known) : "";
  return `unknown ${discriminator} ${shown}${hint} (known: ${known.join(", ")})`;
}

function messageFor(issue: Issue, path: PathSegment[], input: unknown): string {
  switch (issue.code) {
    case "invalid_type": {
      // zod names a keyed object a "record"; a template author writes an object.
      const expected = issue.expected === "record" ? "object" : issue.expected;
      if (valueAt(input, path) === undefined) return `required: add a ${expected} here`;
      return `expected ${expected}, got ${describeValue(valueAt(input, path))}`;
    }
    case "invalid_union": {
      const discriminated = unknownDiscriminator(issue, path, input);
      if (discriminated !== undefined) return discriminated;
      const value = valueAt(input, path);
      const accepted = acceptedLiterals(issue.errors);
      if (typeof value === "string" && accepted.length > 0) {
        return `unknown value "${value}"${didYouMean(value, accepted)} (expected one of: ${accepted.join(", ")}, or an object)`;
      }
      const nested = issue.errors.flat()[0];
      return nested
        ? messageFor(nested, [...path, ...(nested.path as PathSegment[])], input)
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

/**
 * zod issues as template issues: formatted paths and messages that say how to fix them.
 * `jsonSchema` is the template's JSON Schema (input side): it names the keys an object allows.
 */
export function toTemplateIssues(
  error: z.ZodError,
  jsonSchema: JsonSchema,
  input: unknown,
  format: (path: readonly PathSegment[]) => string = formatPath,
): TemplateIssue[] {
  return error.issues.flatMap((issue): TemplateIssue[] => {
    const path = [...issue.path] as PathSegment[];
    if (issue.code === "unrecognized_keys") {
      const known = allowedKeysAt(jsonSchema, path, input).filter((key) => key !== "$schema");
      return issue.keys.map((key) => ({
        path: format([...path, key]),
        message:
          known.length === 0
            ? `unknown key "${key}" (nothing is allowed here)`
            : `unknown key "${key}"${didYouMean(key, known)} (allowed here: ${known.join(", ")})`,
      }));
    }
    const discriminated = issue.code === "invalid_union" && "discriminator" in issue;
    if (
      issue.code === "invalid_union" &&
      !discriminated &&
      typeof valueAt(input, path) !== "string"
    ) {
      // Report the most specific failure: the branch that got furthest.
      const deepest = issue.errors
        .flat()
        .reduce<Issue | undefined>(
          (best, next) => (best === undefined || next.path.length > best.path.length ? next : best),
          undefined,
        );
      if (deepest !== undefined) {
        const nestedPath = [...path, ...(deepest.path as PathSegment[])];
        return [{ path: format(nestedPath), message: messageFor(deepest, nestedPath, input) }];
      }
    }
    return [{ path: format(path), message: messageFor(issue, path, input) }];
  });
}
