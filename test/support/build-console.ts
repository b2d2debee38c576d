import assert from "node:assert/strict";
import { spawnSync } from "node:child_process";

/**
 * The web console built from the current sources into `outDir` (what `npm run build:console`
 * does), so a browser test never serves a stale `dist/web`.
 */
export function buildConsole(outDir: string): void {
  const vite = spawnSync(
    process.execPath,
    [
      "node_modules/vite/bin/vite.js",
      "build",
      "--config",
      "src/web/vite.config.ts",
      "--outDir",
      outDir,
    ],
    { encoding: "utf8", timeout: 120_000 },
  );
  assert.equal(vite.status, 0, `vite build failed:\n${vite.stdout}\n${vite.stderr}`);
}
