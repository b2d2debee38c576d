import { z } from "zod";
import type { ToolModule } from "../tools/index.ts";

// Same rule as the registry's: what every model provider accepts as a function name.
const toolNamePattern = /^[A-Za-z0-9_-]{1,64}$/;
// Categories are matched by template wildcards (`*analysis*`): one lowercase word keeps them simple.
const categoryPattern = /^[a-z][a-z0-9_-]{0,31}$/;
const allowedFields = [
  "name",
  "category",
  "description",
  "inputSchema",
  "execute",
  "runsLong",
  "unavailable",
];

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

/**
 * A zod 4 schema, recognised by shape rather than `instanceof`: a plug-in folder may install its
 * own copy of zod, whose classes are not ours.
 */
function isZodSchema(value: unknown): value is z.ZodType {
  return (
    isRecord(value) &&
    typeof value["safeParse"] === "function" &&
    isRecord(value["_zod"]) &&
    isRecord(value["_zod"]["def"])
  );
}

function describe(value: unknown): string {
  if (value === undefined) return "it is missing";
  if (typeof value === "function") return "got a function";
  // JSON.stringify gives undefined for symbols and bigint's throw is not reachable from a module.
  const json = JSON.stringify(value) as string | undefined;
  return `got ${json ?? typeof value}`;
}

/**
 * The JSON schema the model is offered for a plug-in's input, or why there is none. Providers take
 * an object at the top level.
 */
export function pluginInputJsonSchema(
  schema: z.ZodType,
): { schema: Record<string, unknown> } | { problem: string } {
  let json: Record<string, unknown>;
  try {
    json = z.toJSONSchema(schema, { io: "input" });
  } catch (error) {
    const reason = error instanceof Error ? error.message : String(error);
    return {
      problem: `field "inputSchema" cannot be offered to a model as JSON schema (${reason}); use plain zod types (objects, strings, numbers, enums, arrays)`,
    };
  }
  if (json["type"] !== "object") {
    return {
      problem: `field "inputSchema" must describe a JSON object, got type ${JSON.stringify(json["type"] ?? "unknown")}; wrap the fields in z.object({ ... })`,
    };
  }
  return { schema: json };
}

/**
 * Checks one exported value against the one-module shape (`defineTool`). Returns the module, or
 * the problems as sentences that start with the field and end with the fix.
 */
export function validatePluginTool(
  value: unknown,
): { module: ToolModule; problems: [] } | { problems: string[] } {
  if (!isRecord(value)) {
    return {
      problems: [
        `is not a tool object (${describe(value)}); export the object defineTool({ name, category, description, inputSchema, execute }) returns`,
      ],
    };
  }
  const problems: string[] = [];
  const { name, category, description, inputSchema, execute, runsLong, unavailable } = value;
  if (typeof name !== "string" || !toolNamePattern.test(name)) {
    problems.push(
      `field "name" must be 1 to 64 letters, digits, "_" or "-" (${describe(name)}); name it like "word_count"`,
    );
  }
  if (typeof category !== "string" || !categoryPattern.test(category)) {
    problems.push(
      `field "category" must be one lowercase word such as "analysis" or "research" (${describe(category)}); templates match it with wildcards like "*analysis*"`,
    );
  }
  if (typeof description !== "string" || description.trim() === "") {
    problems.push(
      `field "description" must be a non-empty string (${describe(description)}); tell the model when to use the tool and what to pass`,
    );
  }
  if (!isZodSchema(inputSchema)) {
    problems.push(
      `field "inputSchema" must be a zod 4 schema (${describe(inputSchema)}); for example z.object({ text: z.string() })`,
    );
  } else {
    const json = pluginInputJsonSchema(inputSchema);
    if ("problem" in json) problems.push(json.problem);
  }
  if (typeof execute !== "function") {
    problems.push(
      `field "execute" must be a function (${describe(execute)}); add execute(input, context) returning the result as plain JSON`,
    );
  }
  if (runsLong !== undefined && typeof runsLong !== "boolean") {
    problems.push(
      `field "runsLong" must be true or false (${describe(runsLong)}); set it to true for tools that wait on I/O`,
    );
  }
  if (unavailable !== undefined && typeof unavailable !== "function") {
    problems.push(
      `field "unavailable" must be a function (${describe(unavailable)}); return undefined when the tool can run`,
    );
  }
  for (const key of Object.keys(value)) {
    if (!allowedFields.includes(key)) {
      problems.push(
        `unknown field ${JSON.stringify(key)}; allowed fields are ${allowedFields.join(", ")}`,
      );
    }
  }
  if (problems.length > 0) return { problems };
  return { module: value as unknown as ToolModule, problems: [] };
}
