import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { testServer } from "../support/temporal-env.ts";
import { measureHeapPerSession } from "../bench/support/heap-per-session.ts";

// A cached session keeps only what is its own: the schemas, tables and modules that are the same
// for every session are the worker's, built once (src/orchestration/shared-across-sessions.ts and the
// preloaded modules of src/worker/session-worker.ts). Measured on the heap after a full GC: when
// every session built its own zod schemas a cached session held ~0.8 MiB, now ~0.24.
describe("the heap a cached session holds", { timeout: 240_000 }, () => {
  it("stays under half a MiB per cached session after one turn", async () => {
    const { address, namespace } = testServer();
    const measured = await measureHeapPerSession({ address, namespace, first: 10, second: 40 });
    assert.equal(measured.cachedAfter - measured.cachedBefore, 30, "every added session is cached");
    const mib = measured.bytesPerSession / 2 ** 20;
    assert.ok(mib < 0.5, `a cached session holds ${mib.toFixed(3)} MiB of heap`);
  });
});
