import { readFileSync } from "node:fs";
import { totalmem } from "node:os";
import { getHeapStatistics } from "node:v8";
import { z } from "zod";

const mib = 2 ** 20;

/**
 * Resident memory of a worker holding no session (the bundle, the AI SDK, the gRPC core and the
 * Node runtime): the scale benchmark's idle figure (~300 MiB), rounded up.
 */
export const WORKER_BASE_MIB = 320;

/**
 * Resident memory one cached session adds, measured by the scale benchmark's open-loop run (peak
 * RSS over the sessions the worker held, 300 sessions × 3 short turns: 1.1–1.3 MiB, 1.91 before
 * the schemas and compiled patterns were shared by the worker's sessions), rounded up with room
 * for longer conversations than the benchmark's.
 */
export const CACHED_SESSION_MIB = 1.5;

/** The SDK refuses fewer than 2 cached workflows (0 turns the cache off, which costs a replay per task). */
const MIN_CACHED_WORKFLOWS = 2;

/** Without a budget the worker takes this share of what the machine or its cgroup allows. */
const DEFAULT_SHARE = 0.5;

/** What the worker may use, as the process sees it. */
export interface MemoryFacts {
  machineBytes: number;
  /** The cgroup's limit (v2 `memory.max`, v1 `memory.limit_in_bytes`); undefined when none. */
  cgroupLimitBytes: number | undefined;
  /** V8's heap limit: the workflow thread, where cached sessions live, has the same one. */
  heapLimitBytes: number;
}

export interface WorkflowCacheSize {
  maxCachedWorkflows: number;
  budgetMiB: number;
  /** Where the budget came from, for the start-up line. */
  budgetSource: string;
}

function cgroupLimitBytes(): number | undefined {
  for (const file of ["/sys/fs/cgroup/memory.max", "/sys/fs/cgroup/memory/memory.limit_in_bytes"]) {
    try {
      const text = readFileSync(file, "utf8").trim();
      // v2 says "max", v1 a huge number (2^63 rounded to pages): both mean no limit.
      const bytes = Number(text);
      if (text !== "max" && Number.isFinite(bytes) && bytes < 2 ** 60) return bytes;
      return undefined;
    } catch {
      // Not this cgroup version (or not Linux): try the next.
    }
  }
  return undefined;
}

export function readMemoryFacts(): MemoryFacts {
  return {
    machineBytes: totalmem(),
    cgroupLimitBytes: cgroupLimitBytes(),
    heapLimitBytes: getHeapStatistics().heap_size_limit,
  };
}

export const WORKER_MEMORY_ENV = "AGENTDOCK_WORKER_MEMORY_MB";

const memorySchema = z.coerce
  .number({ error: "is not a number" })
  .int("is not a whole number of MiB")
  .min(WORKER_BASE_MIB + 10 * CACHED_SESSION_MIB, {
    error: `is below what a worker needs: ~${WORKER_BASE_MIB} MiB of its own plus ~${CACHED_SESSION_MIB} MiB per cached session; give it at least ${WORKER_BASE_MIB + 10 * CACHED_SESSION_MIB}`,
  });

/**
 * The memory budget `AGENTDOCK_WORKER_MEMORY_MB` sets (MiB), undefined when unset or empty; an
 * invalid value throws an Error naming the variable, the value and the fix.
 */
export function workerMemorySetting(env: Record<string, string | undefined>): number | undefined {
  const raw = env[WORKER_MEMORY_ENV]?.trim();
  if (raw === undefined || raw === "") return undefined;
  const parsed = memorySchema.safeParse(raw);
  if (!parsed.success) {
    throw new Error(
      `${WORKER_MEMORY_ENV}="${raw}" ${parsed.error.issues[0]?.message ?? "is invalid"} (the worker's memory budget in MiB, e.g. ${WORKER_MEMORY_ENV}=2048)`,
    );
  }
  return parsed.data;
}

/**
 * How many sessions the worker keeps cached, from the memory it may use rather than a fixed
 * count: the budget (given, else half of the cgroup's limit or of the machine's memory, never
 * more than V8's heap limit, which the cached sessions live under) less the worker's own memory,
 * divided by what a cached session costs. A session evicted from the cache is not lost: its next
 * workflow task replays its history.
 */
export function workflowCacheSize(
  budgetMiB: number | undefined,
  facts: MemoryFacts = readMemoryFacts(),
): WorkflowCacheSize {
  const heapMiB = Math.floor(facts.heapLimitBytes / mib);
  let budget: number;
  let source: string;
  if (budgetMiB !== undefined) {
    budget = budgetMiB;
    source = WORKER_MEMORY_ENV;
  } else if (facts.cgroupLimitBytes !== undefined) {
    budget = Math.floor((facts.cgroupLimitBytes / mib) * DEFAULT_SHARE);
    source = `half of the cgroup's ${Math.round(facts.cgroupLimitBytes / mib)} MiB limit`;
  } else {
    budget = Math.floor((facts.machineBytes / mib) * DEFAULT_SHARE);
    source = `half of the machine's ${Math.round(facts.machineBytes / mib)} MiB`;
  }
  if (budget > heapMiB + WORKER_BASE_MIB) {
    budget = heapMiB + WORKER_BASE_MIB;
    source += `, capped by V8's ${heapMiB} MiB heap limit`;
  }
  const sessions = Math.floor((budget - WORKER_BASE_MIB) / CACHED_SESSION_MIB);
  return {
    maxCachedWorkflows: Math.max(MIN_CACHED_WORKFLOWS, sessions),
    budgetMiB: budget,
    budgetSource: source,
  };
}
