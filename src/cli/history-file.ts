import { existsSync, readFileSync, statSync } from "node:fs";
import { basename } from "node:path";
import { historyFromJSON, type History } from "@temporalio/common/lib/proto-utils.js";
import { z } from "zod";
import { CliError } from "./cli-error.ts";

const eventsSchema = z.looseObject({ events: z.array(z.unknown()).min(1) });
const fileSchema = z.union([
  z.looseObject({ workflowId: z.string().min(1), history: eventsSchema }),
  eventsSchema,
]);

export interface HistoryFile {
  workflowId: string;
  history: History;
}

export function isFile(path: string): boolean {
  return existsSync(path) && statSync(path).isFile();
}

/**
 * A history saved as JSON: `{workflowId, history}` (test/replay/histories) or a bare history as
 * `temporal workflow show --output json` or the Web UI export it (its id: the file's name).
 */
export function readHistoryFile(file: string, workflowIdOverride?: string): HistoryFile {
  let json: unknown;
  try {
    json = JSON.parse(readFileSync(file, "utf8"));
  } catch (error) {
    throw new CliError(
      `${file}: not a JSON history: ${error instanceof Error ? error.message : String(error)}`,
    );
  }
  const parsed = fileSchema.safeParse(json);
  if (!parsed.success) {
    throw new CliError(
      `${file}: expected {"workflowId", "history": {"events": [...]}} or {"events": [...]}`,
    );
  }
  const raw = parsed.data;
  const withId = "history" in raw && typeof raw["workflowId"] === "string";
  try {
    return {
      workflowId:
        workflowIdOverride ?? (withId ? String(raw["workflowId"]) : basename(file, ".json")),
      history: historyFromJSON(withId ? raw["history"] : raw),
    };
  } catch (error) {
    throw new CliError(
      `${file}: cannot read the history's events: ${error instanceof Error ? error.message : String(error)}`,
    );
  }
}
