/** The local cluster could not be built, set up or started; the message says how to fix it. */
export class ClusterError extends Error {
  override readonly name = "ClusterError";
}
