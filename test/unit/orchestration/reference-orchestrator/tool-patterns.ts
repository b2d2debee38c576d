import type { ToolCatalogueEntry } from "../../../../src/orchestration/tool-catalogue-entry.ts";

export function isPattern(nameOrPattern: string): boolean {
  return nameOrPattern.includes("*");
}

// Patterns come from templates: a handful per agent, compiled once each.
const compiledGlobs = new Map<string, RegExp>();

function globToRegExp(pattern: string): RegExp {
  let regex = compiledGlobs.get(pattern);
  if (regex === undefined) {
    const escaped = pattern.replace(/[.+?^${}()|[\]\\-]/g, "\\$&").replace(/\*/g, ".*");
    regex = new RegExp(`^${escaped}$`);
    compiledGlobs.set(pattern, regex);
  }
  return regex;
}

/** A `*` glob matches a tool by its name or by its category (`*cognitive*`). */
export function matchesPattern(pattern: string, tool: ToolCatalogueEntry): boolean {
  if (!isPattern(pattern)) return pattern === tool.name;
  const regex = globToRegExp(pattern);
  return regex.test(tool.name) || (tool.category !== undefined && regex.test(tool.category));
}

export function matchesAny(patterns: readonly string[], tool: ToolCatalogueEntry): boolean {
  return patterns.some((pattern) => matchesPattern(pattern, tool));
}
