import type { z } from "zod";

export type ToolCategory = "cognitive" | "writing" | "research";

export interface ToolDefinition<I = unknown> {
  name: string;
  category: ToolCategory;
  /** Written for the model: when to use the tool and what a good input contains. */
  description: string;
  inputSchema: z.ZodType<I>;
}

/** The part of a tool the orchestration core needs: defined there, re-exported for callers here. */
export type { ToolCatalogueEntry } from "../orchestration/tool-catalogue-entry.ts";
