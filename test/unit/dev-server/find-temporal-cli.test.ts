import assert from "node:assert/strict";
import { mkdtemp, readFile, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { after, before, describe, it } from "node:test";
import {
  ensureTemporalCli,
  temporalCliCacheDir,
} from "../../../src/dev-server/find-temporal-cli.ts";
import { TemporalCliError } from "../../../src/dev-server/temporal-cli-error.ts";
import { writeScript } from "./fake-executable.ts";

describe("ensureTemporalCli", { timeout: 30_000 }, () => {
  let root: string;
  before(async () => {
    root = await mkdtemp(join(tmpdir(), "find-temporal-cli-"));
  });
  after(async () => {
    await rm(root, { recursive: true, force: true });
  });

  // Each case gets its own folders: an empty PATH dir, a cache home and a HOME.
  async function sandbox(name: string) {
    const dir = join(root, name);
    const bin = join(dir, "bin");
    await writeScript(join(bin, "unrelated"), "exit 0");
    const env = { PATH: bin, XDG_CACHE_HOME: join(dir, "cache"), HOME: join(dir, "home") };
    return { dir, bin, env, cached: join(temporalCliCacheDir(env), "temporal") };
  }

  it("uses TEMPORAL_CLI before PATH and the cache", async () => {
    const s = await sandbox("env-wins");
    const own = await writeScript(join(s.dir, "my-temporal"), "exit 0");
    await writeScript(join(s.bin, "temporal"), "exit 0");
    await writeScript(s.cached, "exit 0");
    const found = await ensureTemporalCli({ env: { ...s.env, TEMPORAL_CLI: own } });
    assert.deepEqual(found, { path: own, source: "env" });
  });

  it("names TEMPORAL_CLI when it points at a missing file", async () => {
    const s = await sandbox("env-missing");
    await writeScript(join(s.bin, "temporal"), "exit 0");
    const missing = join(s.dir, "nope", "temporal");
    await assert.rejects(ensureTemporalCli({ env: { ...s.env, TEMPORAL_CLI: missing } }), (e) => {
      assert.ok(e instanceof TemporalCliError);
      assert.match(e.message, /TEMPORAL_CLI is set to .*nope\/temporal.*no file exists/);
      return true;
    });
  });

  it("names TEMPORAL_CLI when it points at a file that is not executable", async () => {
    const s = await sandbox("env-not-executable");
    const plain = join(s.dir, "temporal.txt");
    await writeFile(plain, "not a program");
    await assert.rejects(ensureTemporalCli({ env: { ...s.env, TEMPORAL_CLI: plain } }), {
      name: "TemporalCliError",
      message: /TEMPORAL_CLI .* not an executable file/,
    });
  });

  it("finds temporal on PATH before the cache", async () => {
    const s = await sandbox("path");
    const onPath = await writeScript(join(s.bin, "temporal"), "exit 0");
    await writeScript(s.cached, "exit 0");
    const found = await ensureTemporalCli({ env: { ...s.env, TEMPORAL_CLI: "" } });
    assert.deepEqual(found, { path: onPath, source: "path" });
  });

  it("skips a non-executable temporal on PATH", async () => {
    const s = await sandbox("path-not-executable");
    await writeFile(join(s.bin, "temporal"), "text");
    await writeScript(s.cached, "exit 0");
    const found = await ensureTemporalCli({ env: s.env });
    assert.deepEqual(found, { path: s.cached, source: "cache" });
  });

  it("uses the cached build under XDG_CACHE_HOME", async () => {
    const s = await sandbox("cache");
    await writeScript(s.cached, "exit 0");
    const found = await ensureTemporalCli({ env: s.env });
    assert.equal(found.source, "cache");
    assert.equal(found.path, join(s.dir, "cache", "agentdock-temporal", "cli-1.5.1", "temporal"));
  });

  it("falls back to ~/.cache when XDG_CACHE_HOME is unset", async () => {
    const s = await sandbox("home-cache");
    const env = { PATH: s.env.PATH, HOME: s.env.HOME };
    const cached = join(s.env.HOME, ".cache", "agentdock-temporal", "cli-1.5.1", "temporal");
    await writeScript(cached, "exit 0");
    assert.deepEqual(await ensureTemporalCli({ env }), { path: cached, source: "cache" });
  });

  it("says to install Go or set TEMPORAL_CLI when nothing is found and go is missing", async () => {
    const s = await sandbox("no-go");
    await assert.rejects(ensureTemporalCli({ env: s.env }), (e) => {
      assert.ok(e instanceof TemporalCliError);
      assert.match(e.message, /Install Go/);
      assert.match(e.message, /set TEMPORAL_CLI/);
      return true;
    });
  });

  it("builds once with go install into the cache, even when two callers ask at once", async () => {
    const s = await sandbox("build");
    const calls = join(s.dir, "go-calls.log");
    // A stand-in for go: records its arguments and GOBIN, then "installs" a binary slowly.
    await writeScript(
      join(s.bin, "go"),
      `echo "$* GOBIN=$GOBIN" >> "${calls}"
/bin/sleep 0.5
printf '#!/bin/sh\\necho built\\n' > "$GOBIN/temporal"
/bin/chmod +x "$GOBIN/temporal"`,
    );
    const progress: string[] = [];
    const onProgress = (line: string) => {
      progress.push(line);
    };
    const results = await Promise.all([
      ensureTemporalCli({ env: s.env, onProgress }),
      ensureTemporalCli({ env: s.env, onProgress }),
    ]);
    assert.deepEqual(results.map((r) => r.source).sort(), ["built", "cache"]);
    for (const r of results) assert.equal(r.path, s.cached);
    const lines = (await readFile(calls, "utf8")).trim().split("\n");
    assert.equal(lines.length, 1);
    assert.match(
      lines[0] ?? "",
      /^install github\.com\/temporalio\/cli\/cmd\/temporal@v1\.5\.1 GOBIN=/,
    );
    assert.ok(progress.some((l) => l.includes("building the Temporal CLI v1.5.1 with go install")));
    assert.deepEqual(await ensureTemporalCli({ env: s.env }), { path: s.cached, source: "cache" });
  });

  it("reports the go output when go install fails and leaves no binary behind", async () => {
    const s = await sandbox("build-fails");
    await writeScript(join(s.bin, "go"), `echo "go: module lookup disabled" >&2\nexit 1`);
    await assert.rejects(ensureTemporalCli({ env: s.env }), {
      name: "TemporalCliError",
      message: /go install .* failed \(exit 1\)[\s\S]*module lookup disabled/,
    });
    await assert.rejects(readFile(s.cached));
  });
});
