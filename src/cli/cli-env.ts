import { delimiter, resolve } from "node:path";
import { z } from "zod";
import { DEFAULT_TASK_QUEUE } from "../session/index.ts";
import type { CliContext } from "./cli-context.ts";
import { usageError } from "./cli-error.ts";

const cliEnvSchema = z.object({
  AGENTDOCK_TASK_QUEUE: z
    .string()
    .trim()
    .min(1, "set it to a task queue name or leave it unset")
    .default(DEFAULT_TASK_QUEUE),
  AGENTDOCK_AGENTS_DIR: z.string().optional(),
});

export interface CliSettings {
  taskQueue: string;
  /** Local template folders from AGENTDOCK_AGENTS_DIR (path-list separated), absolute. */
  agentsDirs: string[];
}

/** The CLI's own variables (Temporal's connection settings are read by envconfig). */
export function cliSettings(context: CliContext): CliSettings {
  const parsed = cliEnvSchema.safeParse(context.env);
  if (!parsed.success) {
    const issues = parsed.error.issues.map((issue) => `${issue.path.join(".")}: ${issue.message}`);
    throw usageError(`bad environment: ${issues.join("; ")}`);
  }
  const dirs = (parsed.data.AGENTDOCK_AGENTS_DIR ?? "")
    .split(delimiter)
    .filter((dir) => dir.trim() !== "")
    .map((dir) => resolve(dir));
  return { taskQueue: parsed.data.AGENTDOCK_TASK_QUEUE, agentsDirs: dirs };
}
