import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { bundleSessionWorkflows } from "../../../src/worker/session-worker.ts";

// With the SDK's reusable V8 context every workflow evaluates its own copy of each module in the
// bundle unless the bundle preloads it: zod and the AI SDK alone were ~1.5 MB of heap per cached
// session. A preload only shares a module if it requires the very module id the workflow code
// imports (a bare name resolves to a package's CommonJS build, a second copy) and if webpack
// keeps the require (it drops unused requires of "sideEffects": false packages).
const escape = (text: string): string => text.replace(/[.*+?^${}()|[\]\\/]/g, "\\$&");

describe("modules shared by every session's workflow", { timeout: 120_000 }, () => {
  it("the bundle preloads zod, the AI SDK and re2js under the module ids the workflow code imports", async () => {
    const { code } = await bundleSessionWorkflows();
    const preload = /exports\.preloadModules = function preloadModules\(\) \{([^}]*)\}/.exec(code);
    assert.ok(preload?.[1] !== undefined, "the bundle has no preloadModules function");
    const preloaded = new Set(
      [...preload[1].matchAll(/__webpack_require__\([^)]*"([^"]+)"\)/g)].map((m) => m[1]),
    );
    for (const name of ["zod", "ai", "@ai-sdk/provider", "@ai-sdk/provider-utils", "re2js"]) {
      const imported = new Set(
        [...code.matchAll(new RegExp(`/\\*! ${escape(name)} \\*/ "([^"]+)"`, "g"))].map(
          (m) => m[1],
        ),
      );
      assert.ok(imported.size > 0, `the workflow code imports no ${name}`);
      for (const id of imported)
        assert.ok(
          preloaded.has(id),
          `${name} is imported as ${id} but not preloaded (preloaded: ${[...preloaded].join(", ") || "nothing"})`,
        );
    }
  });

  it("the bundle preloads the memo through which our modules build their zod schemas once per worker", async () => {
    const { code } = await bundleSessionWorkflows();
    const preload = /exports\.preloadModules = function preloadModules\(\) \{([^}]*)\}/.exec(code);
    const preloaded = new Set(
      [...(preload?.[1] ?? "").matchAll(/__webpack_require__\([^)]*"([^"]+)"\)/g)].map((m) => m[1]),
    );
    const imported = new Set(
      [...code.matchAll(/\/\*! [^*]*shared-across-sessions\.ts \*\/ "([^"]+)"/g)].map((m) => m[1]),
    );
    assert.ok(imported.size > 0, "the workflow code imports no shared-across-sessions module");
    for (const id of imported)
      assert.ok(
        preloaded.has(id),
        `the schema memo is imported as ${id} but not preloaded: every session would build its own schemas`,
      );
  });
});
