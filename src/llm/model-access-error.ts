/**
 * A model id asks for something the worker's operator did not allow: a provider, a base URL or a
 * script file. `variable` names the environment variable that would allow it. Retrying cannot
 * help; the turn fails with this message and the session stays usable.
 */
export class ModelAccessError extends Error {
  override readonly name = "ModelAccessError";
  readonly variable: string;

  constructor(message: string, variable: string) {
    super(message);
    this.variable = variable;
  }
}
