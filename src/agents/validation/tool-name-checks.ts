import type { Step } from "../../orchestration/template-schema.ts";
import type { ToolCatalogueEntry } from "../../orchestration/tool-catalogue-entry.ts";
import { isPattern, matchesAny } from "../../orchestration/tool-patterns.ts";
import { isMcpToolName, parseMcpToolName } from "../../mcp/mcp-tool-names.ts";
import { agentDockToolNames } from "./agentdock-tools.ts";
import type { CheckIssue } from "./template-checks.ts";
import { didYouMean, type PathSegment } from "./template-paths.ts";

// Load-time checks of tool names (spec §1): the agent's tools against the catalogue, and every
// name a step's policy, sequence or condition uses against the agent's tools.

export function expandAgentTools(
  declared: readonly string[],
  catalogue: readonly ToolCatalogueEntry[] | undefined,
  errors: CheckIssue[],
  missingTools: string[],
): string[] {
  const tools: string[] = [];
  const known = catalogue?.map((entry) => entry.name) ?? [];
  declared.forEach((name, index) => {
    const path: PathSegment[] = ["tools", index];
    if (isPattern(name)) {
      if (catalogue === undefined) {
        errors.push({
          path,
          message: `the pattern "${name}" needs a tool catalogue to expand; list tool names instead`,
        });
        return;
      }
      // A family entry (an MCP server's `mcp.docs.*`) stands for tools not listed yet.
      const matched = catalogue
        .filter((entry) => !isPattern(entry.name) && matchesAny([name], entry))
        .map((entry) => entry.name);
      if (matched.length === 0)
        errors.push({
          path,
          message: isMcpToolName(name)
            ? `the pattern "${name}" cannot list MCP tools: a server's tools are known only when the worker connects; list them by name ("mcp.docs.lookup") and use patterns in availableTools`
            : `the pattern "${name}" matches no known tool (known: ${known.join(", ")})`,
        });
      for (const tool of matched) if (!tools.includes(tool)) tools.push(tool);
      return;
    }
    const mcpProblem = catalogue === undefined ? undefined : unknownMcpServer(name, catalogue);
    if (mcpProblem !== undefined) {
      errors.push({ path, message: mcpProblem });
      return;
    }
    if (catalogue !== undefined && catalogueEntry(catalogue, name) === undefined) {
      // A name close to a known one is a typo; any other may be a plug-in this process lacks
      // (the worker that runs the session may have it): it loads, reported as missing.
      const suggestion = agentDockToolNames.has(name)
        ? ""
        : didYouMean(name, [...known, ...agentDockToolNames]);
      if (suggestion !== "") {
        errors.push({
          path,
          message: `unknown tool "${name}"${suggestion} (known: ${known.join(", ")})`,
        });
        return;
      }
      if (!missingTools.includes(name)) missingTools.push(name);
    }
    if (tools.includes(name)) {
      errors.push({ path, message: `"${name}" is listed twice; list each tool once` });
      return;
    }
    tools.push(name);
  });
  return tools;
}

/**
 * The catalogue's entry for `name`: its own, or that of a family it belongs to (`mcp.docs.*`
 * stands for every tool of the configured MCP server docs, listed only when a worker connects).
 */
export function catalogueEntry(
  catalogue: readonly ToolCatalogueEntry[],
  name: string,
): ToolCatalogueEntry | undefined {
  const exact = catalogue.find((entry) => entry.name === name);
  if (exact !== undefined) return exact;
  const family = catalogue.find(
    (entry) => isPattern(entry.name) && matchesAny([entry.name], { name }),
  );
  return family === undefined ? undefined : { ...family, name };
}

/**
 * An MCP tool of a server close to a configured one's name is a typo (`mcp.doc.lookup` when
 * `docs` is configured); any other unknown server loads as missing (another worker may have it).
 */
function unknownMcpServer(
  name: string,
  catalogue: readonly ToolCatalogueEntry[],
): string | undefined {
  const parsed = parseMcpToolName(name);
  if (parsed === undefined || catalogueEntry(catalogue, name) !== undefined) return undefined;
  const servers = catalogue.flatMap((entry) => {
    const family = isPattern(entry.name) ? parseMcpToolName(entry.name) : undefined;
    return family === undefined ? [] : [family.server];
  });
  const suggestion = didYouMean(parsed.server, servers);
  return suggestion === ""
    ? undefined
    : `unknown MCP server "${parsed.server}" in "${name}"${suggestion} (configured: ${servers.join(", ")})`;
}

export function checkPolicyNames(
  step: Step,
  tools: readonly string[],
  catalogue: readonly ToolCatalogueEntry[] | undefined,
  at: (...rest: PathSegment[]) => PathSegment[],
  errors: CheckIssue[],
  warnings: CheckIssue[],
  toolEntries: readonly ToolCatalogueEntry[],
): void {
  for (const list of ["allowed", "denied"] as const) {
    (step.availableTools?.[list] ?? []).forEach((name, index) => {
      const path = at("availableTools", list, index);
      if (isPattern(name)) {
        if (!toolEntries.some((entry) => matchesAny([name], entry))) {
          warnings.push({
            path,
            message: `the pattern "${name}" matches none of this agent's tools`,
          });
        }
        return;
      }
      const problem = unknownToolMessage(name, tools, catalogue);
      if (problem !== undefined) errors.push({ path, message: problem });
    });
  }
}

export function unknownToolMessage(
  name: string,
  tools: readonly string[],
  catalogue: readonly ToolCatalogueEntry[] | undefined,
): string | undefined {
  if (tools.includes(name)) return undefined;
  if (catalogue?.some((entry) => entry.name === name) === true) {
    return `"${name}" is not one of this agent's tools; add it to "tools"`;
  }
  return `unknown tool "${name}"${didYouMean(name, tools)} (this agent's tools: ${tools.join(", ") || "none"})`;
}

export function checkSequence(
  step: Step,
  tools: readonly string[],
  catalogue: readonly ToolCatalogueEntry[] | undefined,
  toolEntries: readonly ToolCatalogueEntry[],
  at: (...rest: PathSegment[]) => PathSegment[],
  errors: CheckIssue[],
): void {
  const allowed = step.availableTools?.allowed;
  const denied = step.availableTools?.denied ?? [];
  (step.sequence ?? []).forEach((alternatives, position) => {
    alternatives.forEach((name, alternative) => {
      const path =
        alternatives.length === 1
          ? at("sequence", position)
          : at("sequence", position, alternative);
      const problem = unknownToolMessage(name, tools, catalogue);
      if (problem !== undefined) {
        errors.push({ path, message: problem });
        return;
      }
      const entry = toolEntries.find((tool) => tool.name === name) ?? { name };
      const permitted =
        (allowed === undefined || matchesAny(allowed, entry)) && !matchesAny(denied, entry);
      if (!permitted) {
        errors.push({
          path,
          message: `"${name}" is in the sequence but this step's availableTools does not allow it; allow it or remove it from the sequence`,
        });
      }
    });
  });
}

/** A sequence with a position only missing tools could fill cannot complete here. */
export function warnMissingSequenceTools(
  steps: readonly Step[],
  missingTools: readonly string[],
  warnings: CheckIssue[],
): void {
  if (missingTools.length === 0) return;
  steps.forEach((step, index) => {
    const sequence = step.sequence ?? [];
    const first = sequence.findIndex((alternatives) =>
      alternatives.every((name) => missingTools.includes(name)),
    );
    if (first === -1) return;
    const lacking = [...new Set(sequence.flat().filter((name) => missingTools.includes(name)))];
    warnings.push({
      path: ["orchestration", "steps", index, "sequence", first],
      message: `step "${step.name}" cannot complete its sequence here: it needs ${lacking.join(", ")}, which this project does not have`,
    });
  });
}
