/** The template field a model id problem comes from, for errors that name the path to fix. */
export type LlmField = "llm.provider" | "llm.model" | "llm.baseURL" | "llm.providerOptions";

/**
 * A model id the worker's provider cannot decode, or an `llm` block that cannot be encoded into
 * one. Retrying cannot help: the template (or the code that built the id) has to change.
 */
export class ModelIdError extends Error {
  override readonly name = "ModelIdError";
  readonly modelId: string;
  /** The template field to fix, when the problem is in one. */
  readonly field: LlmField | undefined;

  constructor(modelId: string, problem: string, field?: LlmField) {
    super(`model id "${modelId}" ${problem}`);
    this.modelId = modelId;
    this.field = field;
  }
}
