/**
 * A model id the worker's provider cannot decode, or an `llm` block that cannot be encoded into
 * one. Retrying cannot help: the template (or the code that built the id) has to change.
 */
export class ModelIdError extends Error {
  override readonly name = "ModelIdError";
  readonly modelId: string;

  constructor(modelId: string, problem: string) {
    super(`model id "${modelId}" ${problem}`);
    this.modelId = modelId;
  }
}
