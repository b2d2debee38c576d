import { z } from "zod";

/** The `scale` benchmark's open-loop run, from BENCH_SCALE_OPEN_* variables. */
export interface OpenLoopSettings {
  /** Sessions arriving on the schedule; 0 skips the open-loop run. */
  sessions: number;
  /** Concurrent sessions of the short closed-loop run that measures capacity first. */
  capacitySessions: number;
  /** The share of the measured capacity offered. */
  load: number;
}

export const openLoopSettingsHelp = `  BENCH_SCALE_OPEN_SESSIONS  sessions of scale's open-loop run, arriving on a schedule (1000;
                             0 skips it)
  BENCH_SCALE_CAPACITY_SESSIONS
                             concurrent sessions of the closed-loop run that measures the
                             capacity the open loop offers a share of (100)
  BENCH_SCALE_LOAD           that share (0.8)`;

const envSchema = z.object({
  BENCH_SCALE_OPEN_SESSIONS: z.coerce.number().int().nonnegative().default(1000),
  BENCH_SCALE_CAPACITY_SESSIONS: z.coerce.number().int().positive().default(100),
  BENCH_SCALE_LOAD: z.coerce.number().gt(0).max(1).default(0.8),
});

/** The settings, or an Error naming the variable and what it takes. */
export function parseOpenLoopSettings(env: Record<string, string | undefined>): OpenLoopSettings {
  const parsed = envSchema.safeParse(env);
  if (!parsed.success)
    throw new Error(`bench scale: ${z.prettifyError(parsed.error)}\n\n${openLoopSettingsHelp}`);
  return {
    sessions: parsed.data.BENCH_SCALE_OPEN_SESSIONS,
    capacitySessions: parsed.data.BENCH_SCALE_CAPACITY_SESSIONS,
    load: parsed.data.BENCH_SCALE_LOAD,
  };
}
