import type { ToolCatalogueEntry, ToolDefinition } from "./tool-definition.ts";
import type { ToolModule, ToolServices } from "./tool-module.ts";

/** A tool a source discovered at run time, described as plain JSON for the workflow. */
export interface ExternalToolDefinition {
  name: string;
  category: string;
  description: string;
  inputJsonSchema: Record<string, unknown>;
}

export interface ExternalToolCheck {
  /** Tool name → why it cannot run now. */
  unavailable: Record<string, string>;
  /** The tools that can run, in the order asked. */
  definitions: ExternalToolDefinition[];
}

/**
 * Tools a worker finds at run time rather than in modules (MCP servers): the source owns names
 * by their shape (`mcp.<server>.<tool>`), says which can run and how to describe them, and runs
 * them. Asynchronous: answering may take a (bounded) round trip to the tools' server.
 */
export interface ExternalToolSource {
  owns(name: string): boolean;
  /** Entries the agent loader checks names against (may stand for families: `mcp.docs.*`). */
  catalogueEntries(): ToolCatalogueEntry[];
  check(names: readonly string[]): Promise<ExternalToolCheck>;
  run(name: string, input: unknown, signal: AbortSignal | undefined): Promise<unknown>;
  /** At worker start: connects, bounded, and says what it found (one line each). Never throws. */
  connect?(): Promise<string[]>;
  /** At worker stop: closes connections (stops the processes it started). */
  close?(): Promise<void>;
  /** Values from its configuration the worker redacts from errors (tokens, headers). */
  readonly secrets?: readonly string[];
}

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
  #external: ExternalToolSource | undefined;

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

  /** Adds a run-time source (the worker's MCP servers); one per registry. */
  attachSource(source: ExternalToolSource): void {
    if (this.#external !== undefined) {
      throw new Error("cannot attach a second external tool source; attach one that combines them");
    }
    this.#external = source;
  }

  /** Connects the attached source at worker start; its report, one line each. */
  async connectSources(): Promise<string[]> {
    return (await this.#external?.connect?.()) ?? [];
  }

  /** Values the attached source's configuration holds that errors must never show. */
  sourceSecrets(): readonly string[] {
    return this.#external?.secrets ?? [];
  }

  /** Closes the attached source when the worker stops. */
  async closeSources(): Promise<void> {
    await this.#external?.close?.();
  }

  /** The source that owns `name`, if any: its tools are checked and run through it. */
  sourceFor(name: string): ExternalToolSource | undefined {
    return this.#external?.owns(name) === true ? this.#external : undefined;
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
    return [
      ...this.tools.map(({ name, category }) => ({ name, category })),
      ...(this.#external?.catalogueEntries() ?? []),
    ];
  }

  /**
   * Which of `names` this worker cannot run, and why, leaving out names an external source owns
   * (it answers for them, asynchronously). A name no module has is "not installed"
   * (a plug-in missing on this worker); a module whose services are missing says which setting
   * enables it.
   */
  unavailable(names: readonly string[], services: ToolServices): Record<string, string> {
    const unavailable: Record<string, string> = {};
    for (const name of names) {
      if (this.sourceFor(name) !== undefined) continue;
      const module = this.find(name);
      if (module === undefined) {
        unavailable[name] = name.startsWith("mcp.")
          ? `not installed: this worker has no MCP servers (an operator names them in the file AGENTDOCK_MCP_SERVERS points to)`
          : `not installed: this worker has no tool named ${JSON.stringify(name)}`;
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
