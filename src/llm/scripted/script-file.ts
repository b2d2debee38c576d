import { readFileSync } from "node:fs";
import { z } from "zod";
import { ScriptFileError } from "./script-file-error.ts";

const delayMs = z.int().min(0).max(600_000);

const scriptToolCallSchema = z.strictObject({
  toolName: z.string().min(1),
  input: z.record(z.string(), z.json()).default({}),
});

const scriptResponseSchema = z
  .strictObject({
    text: z.string().optional(),
    toolCalls: z.array(scriptToolCallSchema).min(1).optional(),
    delayMs: delayMs.optional(),
  })
  .refine((response) => response.text !== undefined || response.toolCalls !== undefined, {
    error: 'a response needs "text", "toolCalls" or both',
  });

/**
 * `{"responses": [{"text": "..."} | {"toolCalls": [{"toolName", "input"}]}, ...], "delayMs"?}`.
 * Response n answers the prompt holding n assistant messages; `delayMs` (per response, else for
 * the file) simulates latency.
 */
export const scriptSchema = z.strictObject({
  description: z.string().optional(),
  delayMs: delayMs.optional(),
  responses: z.array(scriptResponseSchema).min(1),
});

export type Script = z.output<typeof scriptSchema>;
export type ScriptResponse = Script["responses"][number];

/** Read at every call, so the model keeps no state and an edited script applies at once. */
export function readScript(file: string): Script {
  let raw: string;
  try {
    raw = readFileSync(file, "utf8");
  } catch (error) {
    throw new ScriptFileError(file, `cannot be read: ${errorMessage(error)}`);
  }
  let json: unknown;
  try {
    json = JSON.parse(raw);
  } catch (error) {
    throw new ScriptFileError(file, `is not valid JSON: ${errorMessage(error)}`);
  }
  const parsed = scriptSchema.safeParse(json);
  if (!parsed.success) {
    const lines = parsed.error.issues.map(
      (issue) => `  ${formatPath(issue.path) || "(file)"}: ${issue.message}`,
    );
    throw new ScriptFileError(file, `is invalid:\n${lines.join("\n")}`);
  }
  return parsed.data;
}

function formatPath(path: readonly PropertyKey[]): string {
  return path
    .map((key, index) =>
      typeof key === "number" ? `[${key}]` : `${index === 0 ? "" : "."}${String(key)}`,
    )
    .join("");
}

function errorMessage(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}
