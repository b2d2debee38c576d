import type { z } from "zod";

/**
 * The built-in categories, plus any a plug-in names (`analysis`): templates match categories with
 * wildcards (`*cognitive*`), so a plug-in picks one that groups it sensibly.
 */
export type ToolCategory = "cognitive" | "writing" | "research" | (string & {});

export interface ToolDefinition<I = unknown> {
  name: string;
  category: ToolCategory;
  /** Written for the model: when to use the tool and what a good input contains. */
  description: string;
  inputSchema: z.ZodType<I>;
}

/** The part of a tool the orchestration core needs: defined there, re-exported for callers here. */
export type { ToolCatalogueEntry } from "../orchestration/tool-catalogue-entry.ts";
