/**
 * The conversation asks for a response the script does not have. Retrying replays the same
 * prompt and fails the same way, so this is not retryable: extend the script or shorten the test.
 */
export class ScriptExhaustedError extends Error {
  override readonly name = "ScriptExhaustedError";
  readonly file: string;
  readonly responseCount: number;
  /** 1-based number of the response asked for. */
  readonly requested: number;

  constructor(file: string, responseCount: number, requested: number) {
    const noun = responseCount === 1 ? "response" : "responses";
    super(
      `script ${file} has ${responseCount} ${noun} and the conversation asks for response ${requested}`,
    );
    this.file = file;
    this.responseCount = responseCount;
    this.requested = requested;
  }
}
