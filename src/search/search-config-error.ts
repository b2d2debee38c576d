/**
 * Search settings that cannot be used. The message names each environment
 * variable at fault and says what to set instead.
 */
export class SearchConfigError extends Error {
  override readonly name = "SearchConfigError";
}
