import type { WorkerOptions } from "@temporalio/worker";
import { z } from "zod";

/** Worker options `scale` may set (BENCH_SCALE_WORKER, JSON); unset ones keep the SDK defaults. */
export const workerTuningSchema = z.strictObject({
  maxConcurrentWorkflowTaskExecutions: z.number().int().positive().optional(),
  maxConcurrentActivityTaskExecutions: z.number().int().positive().optional(),
  maxCachedWorkflows: z.number().int().nonnegative().optional(),
  workflowThreadPoolSize: z.number().int().positive().optional(),
  workflowTaskPollers: z.number().int().positive().optional(),
  /** The share of workflow-task pollers on the shared queue (new sessions) against the sticky one. */
  nonStickyToStickyPollRatio: z.number().gt(0).max(1).optional(),
  activityTaskPollers: z.number().int().positive().optional(),
});
export type WorkerTuning = z.infer<typeof workerTuningSchema>;

/**
 * createSessionWorker takes no tuning, but every worker created on a connection runs the
 * connection's plugins' `configureWorker`: the tuning rides in on one.
 */
export function tuningPlugin(tuning: WorkerTuning) {
  const { workflowTaskPollers, activityTaskPollers, ...limits } = tuning;
  return {
    name: "bench-worker-tuning",
    configureWorker: (options: WorkerOptions): WorkerOptions => ({
      ...options,
      ...limits,
      ...(workflowTaskPollers === undefined
        ? {}
        : { workflowTaskPollerBehavior: { type: "simple-maximum", maximum: workflowTaskPollers } }),
      ...(activityTaskPollers === undefined
        ? {}
        : { activityTaskPollerBehavior: { type: "simple-maximum", maximum: activityTaskPollers } }),
    }),
  };
}
