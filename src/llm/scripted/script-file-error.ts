/** A script file that cannot be read or does not have the documented shape. Not retryable. */
export class ScriptFileError extends Error {
  override readonly name = "ScriptFileError";
  readonly file: string;

  constructor(file: string, problem: string) {
    super(`script ${file} ${problem}`);
    this.file = file;
  }
}
