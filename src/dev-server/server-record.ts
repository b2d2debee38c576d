import { readFileSync, rmSync, writeFileSync } from "node:fs";
import { setTimeout as sleep } from "node:timers/promises";
import { z } from "zod";
import { DevServerError } from "./dev-server-error.ts";
import { commandLine } from "./port-holder.ts";

/**
 * Which dev server runs on a SQLite file, written beside it while the server runs
 * (`<db>.server.json`). A `dev` or `start` killed with `kill -9` where the OS cannot take its
 * child down too leaves a server holding the file and the port; the next start finds it here.
 */
const recordSchema = z.object({
  /** The dev server's pid. */
  pid: z.int().positive(),
  /** The process that started it (`dev`, `start`, a test run). */
  owner: z.int().positive(),
  port: z.int(),
  dbFile: z.string(),
});
export type ServerRecord = z.infer<typeof recordSchema>;

export const recordFileFor = (dbFile: string): string => `${dbFile}.server.json`;

export function writeServerRecord(record: ServerRecord): void {
  writeFileSync(recordFileFor(record.dbFile), `${JSON.stringify(record)}\n`);
}

/** Removes the record if it still names `pid` (a newer server may have replaced it). */
export function removeServerRecord(dbFile: string, pid: number): void {
  if (readServerRecord(dbFile)?.pid === pid) rmSync(recordFileFor(dbFile), { force: true });
}

function readServerRecord(dbFile: string): ServerRecord | undefined {
  try {
    const parsed = recordSchema.safeParse(JSON.parse(readFileSync(recordFileFor(dbFile), "utf8")));
    return parsed.success ? parsed.data : undefined;
  } catch {
    return undefined;
  }
}

/** Whether `pid` runs; a zombie (ended, not yet reaped by whoever adopted it) does not. */
function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
  } catch {
    return false;
  }
  try {
    return !/^\d+ \(.*\) Z/.test(readFileSync(`/proc/${pid}/stat`, "utf8"));
  } catch {
    // No /proc (not Linux): the signal check alone.
    return true;
  }
}

/** Whether `pid` is a Temporal dev server on `dbFile` (so a recycled pid is never signalled). */
function isDevServerOn(pid: number, dbFile: string): boolean {
  const args = commandLine(pid);
  return args.includes("start-dev") && args.includes(`--db-filename ${dbFile}`);
}

/**
 * Clears the way for a new dev server on `dbFile`: a server left behind by a process that no
 * longer runs is stopped (SIGTERM, SIGKILL after `graceMs`); one whose starter still runs is
 * another `dev` using the file, and starting a second server on it is refused.
 */
export async function stopServerLeftBehind(dbFile: string, graceMs = 10_000): Promise<void> {
  const record = readServerRecord(dbFile);
  if (record === undefined || !alive(record.pid) || !isDevServerOn(record.pid, dbFile)) return;
  if (record.owner !== process.pid && alive(record.owner)) {
    throw new DevServerError(
      `${dbFile} is in use by the Temporal dev server pid ${record.pid} on port ${record.port}, started by pid ${record.owner} (${commandLine(record.owner)}), which still runs: stop it, or use another --db`,
    );
  }
  process.kill(record.pid, "SIGTERM");
  const deadline = Date.now() + graceMs;
  while (alive(record.pid) && Date.now() < deadline) await sleep(100);
  if (alive(record.pid)) process.kill(record.pid, "SIGKILL");
  const killDeadline = Date.now() + 5_000;
  while (alive(record.pid) && Date.now() < killDeadline) await sleep(50);
  removeServerRecord(dbFile, record.pid);
}
