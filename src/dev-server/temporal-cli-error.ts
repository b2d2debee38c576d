/** The Temporal CLI could not be found or built; the message says how to fix it. */
export class TemporalCliError extends Error {
  override readonly name = "TemporalCliError";
}
