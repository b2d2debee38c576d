/**
 * A plug-in configuration the worker refuses to start with: every problem found, one a line,
 * each naming the file, the export and field, and the fix. Nothing of it was registered.
 */
export class ToolPluginError extends Error {
  override readonly name = "ToolPluginError";
  readonly problems: readonly string[];

  constructor(problems: readonly string[]) {
    const count = problems.length === 1 ? "a problem" : `${problems.length} problems`;
    super(
      `tool plug-ins have ${count}; no plug-in was loaded:\n${problems.map((line) => `  - ${line}`).join("\n")}`,
    );
    this.problems = problems;
  }
}
