import { mkdir, readFile, rename, rm, stat, writeFile } from "node:fs/promises";
import { hostname } from "node:os";
import { join } from "node:path";
import { setTimeout as sleep } from "node:timers/promises";

interface LockOwner {
  pid: number;
  host: string;
  createdAt: number;
}

export interface BuildLockOptions {
  /** Directory whose existence is the lock; mkdir is atomic, so exactly one process creates it. */
  lockDir: string;
  /** A lock older than this is abandoned even if its owner looks alive (a hung build). */
  staleAfterMs?: number;
  pollMs?: number;
  onWait?: () => void;
}

const ownerFile = "owner.json";
// Between mkdir and writing owner.json the lock has no owner; give that gap this long.
const ownerlessGraceMs = 10_000;

/**
 * Runs `fn` while holding a mkdir-based lock shared by every process on this machine (and,
 * through the owner's host name, across machines sharing the folder). A lock whose owner
 * process is gone, or which is older than `staleAfterMs`, is taken over.
 */
export async function withBuildLock<T>(opts: BuildLockOptions, fn: () => Promise<T>): Promise<T> {
  const { lockDir, staleAfterMs = 60 * 60_000, pollMs = 1_000 } = opts;
  let waited = false;
  for (;;) {
    if (await tryAcquire(lockDir)) break;
    if (await isStale(lockDir, staleAfterMs)) {
      // Rename first so that of two processes seeing the same stale lock only one removes it.
      const moved = `${lockDir}.stale-${process.pid}-${Date.now()}`;
      await rename(lockDir, moved).then(
        () => rm(moved, { recursive: true, force: true }),
        () => undefined,
      );
      continue;
    }
    if (!waited) opts.onWait?.();
    waited = true;
    await sleep(pollMs);
  }
  try {
    return await fn();
  } finally {
    await rm(lockDir, { recursive: true, force: true });
  }
}

async function tryAcquire(lockDir: string): Promise<boolean> {
  try {
    await mkdir(lockDir);
  } catch (error) {
    if (isErrno(error, "EEXIST")) return false;
    throw error;
  }
  const owner: LockOwner = { pid: process.pid, host: hostname(), createdAt: Date.now() };
  await writeFile(join(lockDir, ownerFile), JSON.stringify(owner));
  return true;
}

async function isStale(lockDir: string, staleAfterMs: number): Promise<boolean> {
  let createdAt: number;
  try {
    createdAt = (await stat(lockDir)).mtimeMs;
  } catch (error) {
    if (isErrno(error, "ENOENT")) return false; // released meanwhile: just retry mkdir
    throw error;
  }
  const owner = await readOwner(lockDir);
  if (owner === undefined) return Date.now() - createdAt > ownerlessGraceMs;
  if (Date.now() - owner.createdAt > staleAfterMs) return true;
  return owner.host === hostname() && !isAlive(owner.pid);
}

async function readOwner(lockDir: string): Promise<LockOwner | undefined> {
  try {
    const parsed: unknown = JSON.parse(await readFile(join(lockDir, ownerFile), "utf8"));
    if (
      typeof parsed === "object" &&
      parsed !== null &&
      "pid" in parsed &&
      typeof parsed.pid === "number" &&
      "host" in parsed &&
      typeof parsed.host === "string" &&
      "createdAt" in parsed &&
      typeof parsed.createdAt === "number"
    ) {
      return { pid: parsed.pid, host: parsed.host, createdAt: parsed.createdAt };
    }
    return undefined;
  } catch {
    // Missing or half-written: the owner is between mkdir and writeFile, or crashed there.
    return undefined;
  }
}

function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    // EPERM: the process exists but belongs to someone else.
    return isErrno(error, "EPERM");
  }
}

export function isErrno(error: unknown, code: string): boolean {
  return error instanceof Error && "code" in error && error.code === code;
}
