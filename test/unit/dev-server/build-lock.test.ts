import assert from "node:assert/strict";
import { spawnSync } from "node:child_process";
import { mkdir, mkdtemp, rm, stat, writeFile } from "node:fs/promises";
import { hostname, tmpdir } from "node:os";
import { join } from "node:path";
import { after, before, describe, it } from "node:test";
import { withBuildLock } from "../../../src/dev-server/build-lock.ts";

describe("withBuildLock", { timeout: 10_000 }, () => {
  let root: string;
  before(async () => {
    root = await mkdtemp(join(tmpdir(), "build-lock-"));
  });
  after(async () => {
    await rm(root, { recursive: true, force: true });
  });

  async function lockOwnedBy(name: string, owner: object): Promise<string> {
    const lockDir = join(root, name);
    await mkdir(lockDir);
    await writeFile(join(lockDir, "owner.json"), JSON.stringify(owner));
    return lockDir;
  }

  it("runs one holder at a time and releases the lock afterwards", async () => {
    const lockDir = join(root, "serial");
    let inside = 0;
    let maxInside = 0;
    const hold = () =>
      withBuildLock({ lockDir, pollMs: 20 }, async () => {
        inside++;
        maxInside = Math.max(maxInside, inside);
        await new Promise((r) => setTimeout(r, 50));
        inside--;
      });
    await Promise.all([hold(), hold(), hold()]);
    assert.equal(maxInside, 1);
    await assert.rejects(stat(lockDir), { code: "ENOENT" });
  });

  it("takes over a lock whose owner process has exited", async () => {
    const deadPid = spawnSync("/bin/true").pid;
    const lockDir = await lockOwnedBy("dead-owner", {
      pid: deadPid,
      host: hostname(),
      createdAt: Date.now(),
    });
    const result = await withBuildLock({ lockDir, pollMs: 20 }, () => Promise.resolve("ran"));
    assert.equal(result, "ran");
  });

  it("takes over a lock older than staleAfterMs even if its owner is alive", async () => {
    const lockDir = await lockOwnedBy("old-owner", {
      pid: process.pid,
      host: hostname(),
      createdAt: Date.now() - 60_000,
    });
    const result = await withBuildLock({ lockDir, pollMs: 20, staleAfterMs: 1_000 }, () =>
      Promise.resolve("ran"),
    );
    assert.equal(result, "ran");
  });

  it("waits for a live owner and reports that it waits", async () => {
    const lockDir = await lockOwnedBy("live-owner", {
      pid: process.pid,
      host: hostname(),
      createdAt: Date.now(),
    });
    let waits = 0;
    setTimeout(() => void rm(lockDir, { recursive: true, force: true }), 200);
    const started = Date.now();
    await withBuildLock({ lockDir, pollMs: 20, onWait: () => waits++ }, () => Promise.resolve());
    assert.ok(Date.now() - started >= 150);
    assert.equal(waits, 1);
  });
});
