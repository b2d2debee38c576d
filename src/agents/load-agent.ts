import { existsSync, readdirSync, readFileSync, statSync } from "node:fs";
import { join, relative } from "node:path";
import { jsonErrorPosition } from "./json-error-position.ts";
import { encodeModelId } from "../llm/model-id.ts";
import { ModelIdError } from "../llm/model-id-error.ts";
import {
  parseAgentTemplate,
  TemplateError,
  type AgentTemplate,
  type TemplateIssue,
  type ToolCatalogueEntry,
} from "../orchestration/index.ts";

export interface LoadedAgent {
  template: AgentTemplate;
  file: string;
  warnings: TemplateIssue[];
  /** Where the file keeps the id: `id`, or `agentId` in AgentDock's shape. */
  idKey: "id" | "agentId";
}

export interface LoadOptions {
  /** Folders holding `<id>/template.json`, searched in order (shipped agents, then local ones). */
  agentsDirs: readonly string[];
  tools: readonly ToolCatalogueEntry[];
}

function displayPath(file: string): string {
  const shown = relative(process.cwd(), file);
  return shown.startsWith("..") ? file : shown;
}

/** Parses JSON text, turning a syntax error into a TemplateError that gives line and column. */
function parseJsonText(text: string, file: string): unknown {
  try {
    return JSON.parse(text) as unknown;
  } catch (error) {
    const reason = (error instanceof Error ? error.message : String(error)).replace(
      / \(line \d+ column \d+\)$/,
      "",
    );
    const position = jsonErrorPosition(text);
    const where =
      position === undefined ? "" : ` at line ${position.line}, column ${position.column}`;
    const hint = text.trim() === "" ? " (the file is empty)" : "";
    throw new TemplateError(
      [{ path: "", message: `not valid JSON${where}${hint}: ${reason}` }],
      displayPath(file),
    );
  }
}

/** Reads and validates one template file. Throws TemplateError naming the file and paths. */
export function loadTemplateFile(file: string, tools: readonly ToolCatalogueEntry[]): LoadedAgent {
  const shown = displayPath(file);
  let text: string;
  try {
    text = readFileSync(file, "utf8");
  } catch (error) {
    const reason = error instanceof Error ? error.message : String(error);
    throw new TemplateError([{ path: "", message: `cannot read the file: ${reason}` }], shown);
  }
  const warnings: TemplateIssue[] = [];
  const json = parseJsonText(text, file);
  const template = parseAgentTemplate(json, {
    tools,
    source: shown,
    onWarning: (warning) => warnings.push(warning),
  });
  checkLlmBlock(template, shown);
  const idKey = typeof json === "object" && json !== null && "agentId" in json ? "agentId" : "id";
  return { template, file, warnings, idKey };
}

/**
 * The `llm` block through the same `encodeModelId` the session workflow runs, so a block the
 * workflow could not use (a scripted "gpt-4o", a file:// base URL) is refused here, naming the
 * field, instead of failing every turn of every session started from it.
 */
function checkLlmBlock(template: AgentTemplate, shown: string): void {
  try {
    encodeModelId(template.llm);
  } catch (error) {
    if (!(error instanceof ModelIdError)) throw error;
    throw new TemplateError([{ path: error.field ?? "llm", message: error.message }], shown);
  }
}

/** Loads `agents/<id>/template.json` from the first folder that has it. */
export function loadAgent(id: string, options: LoadOptions): LoadedAgent {
  for (const dir of options.agentsDirs) {
    const file = join(dir, id, "template.json");
    if (!existsSync(file)) continue;
    const loaded = loadTemplateFile(file, options.tools);
    if (loaded.template.id !== id) {
      throw new TemplateError(
        [
          {
            path: loaded.idKey,
            message: `the template's id "${loaded.template.id}" must match its folder name "${id}"`,
          },
        ],
        displayPath(file),
      );
    }
    return loaded;
  }
  const known = listAgentIds(options.agentsDirs);
  throw new Error(
    `no agent "${id}": looked for ${id}/template.json in ${options.agentsDirs.map(displayPath).join(", ")}` +
      (known.length > 0 ? `; available agents: ${known.join(", ")}` : ""),
  );
}

/** Agent ids (folder names holding a template.json), first folder winning, sorted. */
export function listAgentIds(agentsDirs: readonly string[]): string[] {
  const ids = new Set<string>();
  for (const dir of agentsDirs) {
    if (!existsSync(dir)) continue;
    for (const entry of readdirSync(dir)) {
      const folder = join(dir, entry);
      if (statSync(folder).isDirectory() && existsSync(join(folder, "template.json")))
        ids.add(entry);
    }
  }
  return [...ids].sort();
}

export type AgentListing =
  { id: string; ok: true; agent: LoadedAgent } | { id: string; ok: false; error: Error };

/** Every agent found, each loaded or with the error that stops it from loading. */
export function listAgents(options: LoadOptions): AgentListing[] {
  return listAgentIds(options.agentsDirs).map((id) => {
    try {
      return { id, ok: true, agent: loadAgent(id, options) };
    } catch (error) {
      return { id, ok: false, error: error instanceof Error ? error : new Error(String(error)) };
    }
  });
}
