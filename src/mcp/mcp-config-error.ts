/**
 * An MCP configuration the worker and the CLI refuse: every problem found, one a line, each
 * naming the file, the server and field, and the fix. No server was connected.
 */
export class McpConfigError extends Error {
  override readonly name = "McpConfigError";
  readonly problems: readonly string[];

  constructor(file: string, problems: readonly string[]) {
    const count = problems.length === 1 ? "a problem" : `${problems.length} problems`;
    super(
      `MCP servers file ${file} has ${count}; no MCP server was connected:\n${problems.map((line) => `  - ${line}`).join("\n")}`,
    );
    this.problems = problems;
  }
}
