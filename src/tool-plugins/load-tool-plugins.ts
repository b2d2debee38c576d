import { readdir, stat } from "node:fs/promises";
import { extname, isAbsolute, resolve } from "node:path";
import { pathToFileURL } from "node:url";
import { createToolRegistry, type ToolModule, type ToolRegistry } from "../tools/index.ts";
import type { ToolPluginConfig } from "./plugin-config.ts";
import { ToolPluginError } from "./tool-plugin-error.ts";
import { validatePluginTool } from "./validate-plugin-tool.ts";

// `.ts` and `.mts` run through Node's type stripping; declaration files hold no code.
const moduleExtensions = new Set([".ts", ".mts", ".js", ".mjs"]);

function isModuleFile(fileName: string): boolean {
  if (fileName.startsWith(".") || /\.d\.m?ts$/.test(fileName)) return false;
  return moduleExtensions.has(extname(fileName));
}

/** A module to import: where the operator named it (for messages) and what `import()` takes. */
interface PluginSource {
  label: string;
  specifier: string;
}

export interface LoadedToolPlugins {
  /** In the order found: folders first (files by name), then the listed modules. */
  modules: ToolModule[];
  /** Worth telling the operator, not worth refusing to start (an empty folder). */
  warnings: string[];
}

function looksLikeFile(entry: string): boolean {
  return entry.startsWith(".") || isAbsolute(entry) || moduleExtensions.has(extname(entry));
}

async function isDirectory(path: string): Promise<boolean | undefined> {
  try {
    return (await stat(path)).isDirectory();
  } catch {
    return undefined;
  }
}

async function findSources(
  config: ToolPluginConfig,
  cwd: string,
  problems: string[],
  warnings: string[],
): Promise<PluginSource[]> {
  const sources: PluginSource[] = [];
  for (const dir of config.dirs) {
    const folder = resolve(cwd, dir);
    const directory = await isDirectory(folder);
    if (directory !== true) {
      const what = directory === undefined ? "does not exist" : "is not a folder";
      problems.push(
        `AGENTDOCK_TOOL_DIRS: ${folder} ${what}; create it or remove it from AGENTDOCK_TOOL_DIRS`,
      );
      continue;
    }
    const files = (await readdir(folder)).filter(isModuleFile).sort();
    if (files.length === 0) {
      warnings.push(`AGENTDOCK_TOOL_DIRS: ${folder} has no .ts, .mts, .js or .mjs files`);
    }
    for (const file of files) {
      const path = resolve(folder, file);
      sources.push({ label: path, specifier: pathToFileURL(path).href });
    }
  }
  for (const entry of config.modules) {
    if (!looksLikeFile(entry)) {
      sources.push({ label: `package ${JSON.stringify(entry)}`, specifier: entry });
      continue;
    }
    const path = resolve(cwd, entry);
    if ((await isDirectory(path)) !== false) {
      problems.push(
        `AGENTDOCK_TOOL_MODULES: ${path} is not a module file; name a .ts, .mts, .js or .mjs file (folders go in AGENTDOCK_TOOL_DIRS)`,
      );
      continue;
    }
    sources.push({ label: path, specifier: pathToFileURL(path).href });
  }
  return sources;
}

/** The values a module offers as tools, each with the export that holds it. */
function exportedTools(
  namespace: Record<string, unknown>,
): { where: string; value: unknown }[] | string {
  const found: { where: string; value: unknown }[] = [];
  const add = (exportName: string, value: unknown): void => {
    if (Array.isArray(value)) {
      value.forEach((item: unknown, index) =>
        found.push({ where: `export "${exportName}"[${index}]`, value: item }),
      );
    } else {
      found.push({ where: `export "${exportName}"`, value });
    }
  };
  if (namespace["default"] !== undefined) add("default", namespace["default"]);
  if (namespace["tool"] !== undefined) add("tool", namespace["tool"]);
  if (namespace["tools"] !== undefined) {
    if (!Array.isArray(namespace["tools"])) {
      return `export "tools" must be an array of tools; export a single tool as "tool" or as the default export`;
    }
    add("tools", namespace["tools"]);
  }
  if (found.length === 0) {
    return `exports no tool; default-export one (export default defineTool({ ... })) or export "tool" or "tools"`;
  }
  // `export const tool = ...; export default tool;` names one tool twice: keep the first.
  return found.filter(
    ({ value }, index) => found.findIndex((other) => other.value === value) === index,
  );
}

/**
 * Imports every configured plug-in module and checks each tool it exports. All or nothing: any
 * problem (a module that fails to import, a bad field, a name taken) throws them all at once.
 *
 * @throws {ToolPluginError} listing every problem, each naming the file, the export and the fix.
 */
export async function loadToolPlugins(
  config: ToolPluginConfig,
  options: { cwd: string },
): Promise<LoadedToolPlugins> {
  const problems: string[] = [];
  const warnings: string[] = [];
  const sources = await findSources(config, options.cwd, problems, warnings);
  const builtinNames = new Set(createToolRegistry().names);
  const owners = new Map<string, string>();
  const modules: ToolModule[] = [];
  for (const source of sources) {
    let namespace: Record<string, unknown>;
    try {
      namespace = (await import(source.specifier)) as Record<string, unknown>;
    } catch (error) {
      const reason = error instanceof Error ? error.message : String(error);
      problems.push(
        `${source.label}: cannot be imported (${reason}); fix the module so that it loads`,
      );
      continue;
    }
    const exported = exportedTools(namespace);
    if (typeof exported === "string") {
      problems.push(`${source.label}: ${exported}`);
      continue;
    }
    for (const { where, value } of exported) {
      const checked = validatePluginTool(value);
      const named =
        typeof (value as { name?: unknown } | null)?.name === "string"
          ? ` (tool ${JSON.stringify((value as { name: string }).name)})`
          : "";
      if (!("module" in checked)) {
        for (const problem of checked.problems)
          problems.push(`${source.label}: ${where}${named}: ${problem}`);
        continue;
      }
      const { name } = checked.module;
      if (builtinNames.has(name)) {
        problems.push(
          `${source.label}: ${where}: field "name" is ${JSON.stringify(name)}, a built-in tool's name; rename the plug-in tool`,
        );
        continue;
      }
      const owner = owners.get(name);
      if (owner !== undefined) {
        problems.push(
          `${source.label}: ${where}: field "name" is ${JSON.stringify(name)}, already a tool of ${owner}; rename one of them or remove one module`,
        );
        continue;
      }
      owners.set(name, source.label);
      modules.push(checked.module);
    }
  }
  if (problems.length > 0) throw new ToolPluginError(problems);
  return { modules, warnings };
}

/** The built-in tools plus the configured plug-ins: what a worker runs and the CLI checks against. */
export async function createPluginToolRegistry(
  config: ToolPluginConfig,
  options: { cwd: string },
): Promise<{ registry: ToolRegistry; warnings: string[] }> {
  const { modules, warnings } = await loadToolPlugins(config, options);
  const registry = createToolRegistry();
  for (const module of modules) registry.register(module);
  return { registry, warnings };
}
