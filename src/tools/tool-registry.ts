import type { ToolCatalogueEntry, ToolDefinition } from "./tool-definition.ts";
import type { ToolModule, ToolServices } from "./tool-module.ts";

// What every model provider accepts as a function name.
const toolNamePattern = /^[A-Za-z0-9_-]{1,64}$/;

/**
 * The tools a worker can run, in the order they are offered to the model. Built at worker start
 * from the built-in modules; more (plug-ins) can be registered afterwards. The catalogue the
 * agent loader checks, the activity's dispatch, tool availability and the workflow's tool set
 * all read it, so a tool exists in exactly one place: its module.
 */
export class ToolRegistry {
  readonly #tools = new Map<string, ToolModule>();

  constructor(modules: readonly ToolModule[] = []) {
    for (const module of modules) {
      this.register(module);
    }
  }

  /** @throws {Error} naming the tool when its name is invalid or already taken. */
  register(module: ToolModule): void {
    const name: unknown = module.name;
    if (typeof name !== "string" || !toolNamePattern.test(name)) {
      throw new Error(
        `cannot register tool ${JSON.stringify(name)}: a tool name is 1 to 64 letters, digits, "_" or "-"`,
      );
    }
    if (this.#tools.has(name)) {
      throw new Error(
        `cannot register tool ${JSON.stringify(name)}: a tool with that name is already registered; rename one of them`,
      );
    }
    this.#tools.set(name, module);
  }

  find(name: string): ToolModule | undefined {
    return this.#tools.get(name);
  }

  get tools(): readonly ToolModule[] {
    return [...this.#tools.values()];
  }

  get names(): readonly string[] {
    return [...this.#tools.keys()];
  }

  /**
   * The definitions of `names` this registry has, in the given order: what the model is offered
   * for an agent's tool list. Names it lacks are left out (availability reports them).
   */
  definitionsFor(names: readonly string[]): ToolDefinition[] {
    return names.flatMap((name) => {
      const module = this.find(name);
      return module === undefined ? [] : [module];
    });
  }

  /** Names and categories: what the agent loader and the orchestration core check against. */
  catalogueEntries(): ToolCatalogueEntry[] {
    return this.tools.map(({ name, category }) => ({ name, category }));
  }

  /**
   * Which of `names` this worker cannot run, and why. A name no module has is "not installed"
   * (a plug-in missing on this worker); a module whose services are missing says which setting
   * enables it.
   */
  unavailable(names: readonly string[], services: ToolServices): Record<string, string> {
    const unavailable: Record<string, string> = {};
    for (const name of names) {
      const module = this.find(name);
      if (module === undefined) {
        unavailable[name] = `not installed: this worker has no tool named ${JSON.stringify(name)}`;
        continue;
      }
      const missing = module.unavailable?.(services);
      if (missing !== undefined) {
        unavailable[name] = missing.reason;
      }
    }
    return unavailable;
  }
}
