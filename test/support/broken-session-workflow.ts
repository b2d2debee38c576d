/**
 * A broken deploy of the session workflow (same workflow type, every workflow task fails): a
 * worker running it leaves a session's workflow task failing, so that from the third attempt on
 * the server refuses updates with "Workflow Task in failed state", as it does when an overloaded
 * worker lets tasks time out.
 */
export function agentSession(): Promise<never> {
  // A plain Error (not an ApplicationFailure) fails the workflow task, not the workflow.
  return Promise.reject(new Error("broken deploy: this workflow task fails on purpose"));
}
