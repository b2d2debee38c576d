import {
  closeSync,
  constants,
  fstatSync,
  openSync,
  readdirSync,
  readSync,
  statSync,
} from "node:fs";
import { join, relative } from "node:path";
import { jsonErrorPosition } from "./json-error-position.ts";
import { encodeModelId } from "../llm/model-id.ts";
import { ModelIdError } from "../llm/model-id-error.ts";
import { MAX_TEMPLATE_FILE_BYTES, TemplateTooLargeError } from "./template-too-large-error.ts";
import type { AgentTemplate, ToolCatalogueEntry } from "../orchestration/index.ts";
import { templateVersion } from "./template-version.ts";
import { parseAgentTemplate, TemplateError, type TemplateIssue } from "./validation/index.ts";

export interface LoadedAgent {
  template: AgentTemplate;
  file: string;
  warnings: TemplateIssue[];
  /** Where the file keeps the id: `id`, or `agentId` in AgentDock's shape. */
  idKey: "id" | "agentId";
  /** AgentDock tools the template names that this project lacks: never offered to the model. */
  missingTools: string[];
  /** The validated template's content hash (`sha256:…`), which sessions started from it pin. */
  version: string;
}

export interface LoadOptions {
  /** Folders holding `<id>/template.json`, searched in order (shipped agents, then local ones). */
  agentsDirs: readonly string[];
  tools: readonly ToolCatalogueEntry[];
  /**
   * Told about each folder entry skipped because it cannot be read (a dangling link, a loop, no
   * permission). Default: a process warning, once per entry.
   */
  onSkippedEntry?: (skipped: SkippedEntry) => void;
}

export interface SkippedEntry {
  path: string;
  reason: string;
}

const warnedEntries = new Set<string>();

/** The default for `onSkippedEntry`: a warning on stderr, once per path and process. */
function warnOnce({ path, reason }: SkippedEntry): void {
  if (warnedEntries.has(path)) return;
  warnedEntries.add(path);
  process.emitWarning(`skipping ${displayPath(path)} in the agents folder: ${reason}`);
}

function reasonOf(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}

/** Why a folder entry cannot be examined, in words; the system's message otherwise. */
function skipReason(error: unknown): string {
  switch ((error as NodeJS.ErrnoException).code) {
    case "ENOENT":
      return "a link to something that does not exist";
    case "ELOOP":
      return "a loop of links";
    case "EACCES":
    case "EPERM":
      return "no permission to read it";
    default:
      return reasonOf(error);
  }
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

/**
 * The file's text, refusing what is not a regular file (a FIFO would block the reader for good)
 * and what is over MAX_TEMPLATE_FILE_BYTES, without reading more than the limit.
 */
function readTemplateText(file: string, shown: string): string {
  let fd: number;
  try {
    fd = openSync(file, constants.O_RDONLY | constants.O_NONBLOCK);
  } catch (error) {
    throw new TemplateError(
      [{ path: "", message: `cannot read the file: ${reasonOf(error)}` }],
      shown,
    );
  }
  try {
    const stats = fstatSync(fd);
    if (!stats.isFile()) {
      throw new TemplateError([{ path: "", message: "not a regular file" }], shown);
    }
    if (stats.size > MAX_TEMPLATE_FILE_BYTES) throw new TemplateTooLargeError(shown, stats.size);
    // The size can change between the stat and the read: read one byte past the limit to know.
    const buffer = Buffer.alloc(MAX_TEMPLATE_FILE_BYTES + 1);
    let length = 0;
    for (;;) {
      const read = readSync(fd, buffer, length, buffer.length - length, null);
      if (read === 0) break;
      length += read;
      if (length > MAX_TEMPLATE_FILE_BYTES) throw new TemplateTooLargeError(shown, length);
    }
    return buffer.toString("utf8", 0, length);
  } catch (error) {
    if (error instanceof TemplateError) throw error;
    throw new TemplateError(
      [{ path: "", message: `cannot read the file: ${reasonOf(error)}` }],
      shown,
    );
  } finally {
    closeSync(fd);
  }
}

/** Reads and validates one template file. Throws TemplateError naming the file and paths. */
export function loadTemplateFile(file: string, tools: readonly ToolCatalogueEntry[]): LoadedAgent {
  const shown = displayPath(file);
  const text = readTemplateText(file, shown);
  const warnings: TemplateIssue[] = [];
  const missingTools: string[] = [];
  const json = parseJsonText(text, file);
  const template = parseAgentTemplate(json, {
    tools,
    source: shown,
    onWarning: (warning) => warnings.push(warning),
    onMissingTools: (names) => missingTools.push(...names),
  });
  checkLlmBlock(template, shown);
  const idKey = typeof json === "object" && json !== null && "agentId" in json ? "agentId" : "id";
  return { template, file, warnings, idKey, missingTools, version: templateVersion(template) };
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
    if (!isTemplateFile(file)) continue;
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
  const known = listAgentIds(options.agentsDirs, options.onSkippedEntry);
  throw new Error(
    `no agent "${id}": looked for ${id}/template.json in ${options.agentsDirs.map(displayPath).join(", ")}` +
      (known.length > 0 ? `; available agents: ${known.join(", ")}` : ""),
  );
}

/** Whether `file` exists and is a regular file (following links); unreadable counts as no. */
function isTemplateFile(file: string): boolean {
  try {
    return statSync(file).isFile();
  } catch {
    // A dangling link or a missing file: not an agent here, the next folder may have it.
    return false;
  }
}

/**
 * Agent ids (folder names holding a template.json), first folder winning, sorted. An entry that
 * cannot be examined (a dangling link, a link loop, no permission) is skipped and reported, so
 * one bad entry never hides the others.
 */
export function listAgentIds(
  agentsDirs: readonly string[],
  onSkippedEntry: (skipped: SkippedEntry) => void = warnOnce,
): string[] {
  const ids = new Set<string>();
  for (const dir of agentsDirs) {
    let entries: string[];
    try {
      entries = readdirSync(dir);
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== "ENOENT") {
        onSkippedEntry({ path: dir, reason: skipReason(error) });
      }
      continue;
    }
    for (const entry of entries) {
      const folder = join(dir, entry);
      try {
        if (!statSync(folder).isDirectory()) continue;
      } catch (error) {
        onSkippedEntry({ path: folder, reason: skipReason(error) });
        continue;
      }
      if (isTemplateFile(join(folder, "template.json"))) ids.add(entry);
    }
  }
  return [...ids].sort();
}

export type AgentListing =
  { id: string; ok: true; agent: LoadedAgent } | { id: string; ok: false; error: Error };

/** Every agent found, each loaded or with the error that stops it from loading. */
export function listAgents(options: LoadOptions): AgentListing[] {
  return listAgentIds(options.agentsDirs, options.onSkippedEntry).map((id) => {
    try {
      return { id, ok: true, agent: loadAgent(id, options) };
    } catch (error) {
      return { id, ok: false, error: error instanceof Error ? error : new Error(String(error)) };
    }
  });
}
