import assert from "node:assert/strict";
import { spawn } from "node:child_process";
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { after, describe, it } from "node:test";
import { fileURLToPath } from "node:url";

const runScript = fileURLToPath(new URL("../../bench/run.ts", import.meta.url));

/** `npm run bench -- <args>` in `cwd` (whose bench/results.json the run reads), bounded in time. */
function bench(
  cwd: string,
  args: string[],
): Promise<{ code: number | null; stdout: string; stderr: string }> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [runScript, ...args], {
      cwd,
      stdio: ["ignore", "pipe", "pipe"],
      timeout: 60_000,
    });
    let stdout = "";
    let stderr = "";
    child.stdout.on("data", (chunk: Buffer) => (stdout += chunk.toString()));
    child.stderr.on("data", (chunk: Buffer) => (stderr += chunk.toString()));
    child.once("error", reject);
    child.once("close", (code) => {
      resolve({ code, stdout, stderr });
    });
  });
}

describe("npm run bench with a broken bench/results.json", () => {
  const dir = mkdtempSync(join(tmpdir(), "bench-results-"));
  after(() => {
    rmSync(dir, { recursive: true, force: true });
  });
  mkdirSync(join(dir, "bench"));
  const file = join(dir, "bench", "results.json");

  it("refuses to start, naming the file, what is wrong and how to fix it, and leaves the file alone", async () => {
    writeFileSync(file, '{"turn": {');
    const run = await bench(dir, ["core"]);
    assert.equal(run.code, 2, run.stderr);
    assert.match(run.stderr, /^bench: bench\/results\.json: not JSON \(/);
    assert.match(run.stderr, /restore it \(git checkout bench\/results\.json\) or delete it/);
    assert.doesNotMatch(run.stdout, /▶ core/);
    assert.equal(readFileSync(file, "utf8"), '{"turn": {');
  });

  it("refuses one that holds a list rather than the benchmarks' results", async () => {
    writeFileSync(file, "[]");
    const run = await bench(dir, ["core"]);
    assert.equal(run.code, 2, run.stderr);
    assert.match(
      run.stderr,
      /bench\/results\.json: holds an array, not an object of benchmark results/,
    );
  });
});
