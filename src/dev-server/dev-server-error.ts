/** The dev server exited, timed out or refused its configuration while starting. */
export class DevServerError extends Error {
  override readonly name = "DevServerError";
}
