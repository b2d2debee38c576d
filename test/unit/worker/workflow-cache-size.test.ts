import assert from "node:assert/strict";
import { describe, it } from "node:test";
import {
  CACHED_SESSION_MIB,
  WORKER_BASE_MIB,
  workerMemorySetting,
  workflowCacheSize,
  type MemoryFacts,
} from "../../../src/worker/workflow-cache-size.ts";

const mib = 2 ** 20;
const facts = (overrides: Partial<MemoryFacts> = {}): MemoryFacts => ({
  machineBytes: 8192 * mib,
  cgroupLimitBytes: undefined,
  heapLimitBytes: 4096 * mib,
  ...overrides,
});

describe("workflow cache size from memory", () => {
  it("fits as many sessions as the budget holds after the worker's own memory", () => {
    const size = workflowCacheSize(1024, facts());
    assert.equal(
      size.maxCachedWorkflows,
      Math.floor((1024 - WORKER_BASE_MIB) / CACHED_SESSION_MIB),
    );
    assert.equal(size.budgetMiB, 1024);
    assert.match(size.budgetSource, /AGENTDOCK_WORKER_MEMORY_MB/);
  });

  it("takes half the machine's memory without a budget or a cgroup limit", () => {
    const size = workflowCacheSize(undefined, facts());
    assert.equal(size.budgetMiB, 4096);
    assert.match(size.budgetSource, /half of the machine's 8192 MiB/);
  });

  it("takes half the cgroup's limit when the worker runs under one", () => {
    const size = workflowCacheSize(undefined, facts({ cgroupLimitBytes: 2048 * mib }));
    assert.equal(size.budgetMiB, 1024);
    assert.match(size.budgetSource, /cgroup's 2048 MiB limit/);
  });

  it("never sizes the cache past V8's heap limit, where cached sessions live", () => {
    const size = workflowCacheSize(64 * 1024, facts({ heapLimitBytes: 2048 * mib }));
    assert.equal(size.budgetMiB, 2048 + WORKER_BASE_MIB);
    assert.match(size.budgetSource, /capped by V8's 2048 MiB heap limit/);
  });

  it("grows with the memory given, not a fixed count", () => {
    const small = workflowCacheSize(1024, facts()).maxCachedWorkflows;
    const large = workflowCacheSize(2048, facts()).maxCachedWorkflows;
    assert.ok(large > small, `${large} cached at 2 GiB, ${small} at 1 GiB`);
  });
});

describe("AGENTDOCK_WORKER_MEMORY_MB", () => {
  it("is unset when absent or empty", () => {
    assert.equal(workerMemorySetting({}), undefined);
    assert.equal(workerMemorySetting({ AGENTDOCK_WORKER_MEMORY_MB: " " }), undefined);
  });

  it("reads a whole number of MiB", () => {
    assert.equal(workerMemorySetting({ AGENTDOCK_WORKER_MEMORY_MB: "2048" }), 2048);
  });

  it("refuses a value that is not a number, naming the variable, the value and an example", () => {
    assert.throws(
      () => workerMemorySetting({ AGENTDOCK_WORKER_MEMORY_MB: "2GB" }),
      /AGENTDOCK_WORKER_MEMORY_MB="2GB" is not a number.*AGENTDOCK_WORKER_MEMORY_MB=2048/,
    );
  });

  it("refuses a budget below what the worker itself needs, saying how much is enough", () => {
    assert.throws(
      () => workerMemorySetting({ AGENTDOCK_WORKER_MEMORY_MB: "100" }),
      new RegExp(
        `"100" is below what a worker needs.*at least ${WORKER_BASE_MIB + 10 * CACHED_SESSION_MIB}`,
      ),
    );
  });
});
