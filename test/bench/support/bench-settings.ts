import { z } from "zod";
import { workerTuningSchema, type WorkerTuning } from "./worker-tuning.ts";

export interface BenchSettings {
  /** Timed rounds in `turn`: one turn of each kind (in process, durable, floor, 100 ms model) a round. */
  turnIterations: number;
  /** Turns of the one long session `growth` drives (and `replay` replays). */
  growthTurns: number;
  /** Concurrent session counts `scale` measures, one worker process each. */
  scaleSessions: number[];
  /** Turns each session runs in `scale`. */
  scaleTurnsPerSession: number;
  /** Options for the `scale` worker; empty keeps the SDK's defaults. */
  scaleWorkerTuning: WorkerTuning;
}

export const settingsHelp = `Environment:
  BENCH_TURN_ITERATIONS   timed rounds in turn, one turn of each kind a round (30)
  BENCH_GROWTH_TURNS      turns of the growth (and replay) session (500)
  BENCH_SCALE_SESSIONS    concurrent session counts for scale (10,100,1000)
  BENCH_SCALE_TURNS       turns each scale session runs (3)
  BENCH_SCALE_WORKER      worker options for scale as JSON, e.g.
                          {"maxCachedWorkflows":300,"maxConcurrentWorkflowTaskExecutions":100,
                           "workflowThreadPoolSize":2,"workflowTaskPollers":20}`;

const count = (fallback: number) => z.coerce.number().int().positive().default(fallback);
const json = (fallback: string) =>
  z
    .string()
    .default(fallback)
    .transform((text, context) => {
      try {
        return JSON.parse(text) as unknown;
      } catch {
        context.addIssue({ code: "custom", message: "is not JSON" });
        return z.NEVER;
      }
    });

const envSchema = z.object({
  BENCH_TURN_ITERATIONS: count(30),
  BENCH_GROWTH_TURNS: count(500),
  BENCH_SCALE_SESSIONS: z
    .string()
    .default("10,100,1000")
    .transform((list) => list.split(",").map(Number))
    .pipe(z.array(z.number().int().positive()).min(1)),
  BENCH_SCALE_TURNS: count(3),
  BENCH_SCALE_WORKER: json("{}").pipe(workerTuningSchema),
});

/** The settings from BENCH_* variables, or the reason they are invalid. */
export function parseBenchSettings(
  env: Record<string, string | undefined>,
): { settings: BenchSettings } | { error: string } {
  const parsed = envSchema.safeParse(env);
  if (!parsed.success) return { error: z.prettifyError(parsed.error) };
  const data = parsed.data;
  return {
    settings: {
      turnIterations: data.BENCH_TURN_ITERATIONS,
      growthTurns: data.BENCH_GROWTH_TURNS,
      scaleSessions: data.BENCH_SCALE_SESSIONS,
      scaleTurnsPerSession: data.BENCH_SCALE_TURNS,
      scaleWorkerTuning: data.BENCH_SCALE_WORKER,
    },
  };
}
