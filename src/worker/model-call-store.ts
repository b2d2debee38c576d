import type { InjectedSinks } from "@temporalio/worker";
import type { ModelCallSinks } from "../session/model-call-input.ts";

/** Calls offered and not yet taken (their activity runs on another worker, or never ran). */
const MAX_OFFERED_CALLS = 1_000;

/**
 * The call options a session's workflow offered through its sink as it scheduled a model call
 * on this worker, for the activity to take without asking the workflow by query: with eager
 * activities and sticky queues the activity usually runs in the process that ran the workflow
 * task, so the options never leave it. An activity that finds nothing here (another worker, a
 * retry, a replayed workflow) asks by query. Bounded: what no activity takes is dropped oldest
 * first.
 */
export class ModelCallStore {
  private readonly offered = new Map<string, unknown>();

  take(workflowId: string, runId: string, topic: string): unknown {
    const key = `${workflowId}/${runId}/${topic}`;
    const options = this.offered.get(key);
    this.offered.delete(key);
    return options;
  }

  sinks(): InjectedSinks<ModelCallSinks> {
    return {
      modelCalls: {
        offer: {
          fn: (info, topic, options) => {
            this.offered.set(`${info.workflowId}/${info.runId}/${topic}`, options);
            if (this.offered.size > MAX_OFFERED_CALLS) {
              const oldest = this.offered.keys().next();
              if (oldest.done !== true) this.offered.delete(oldest.value);
            }
          },
          callDuringReplay: false,
        },
      },
    };
  }
}
