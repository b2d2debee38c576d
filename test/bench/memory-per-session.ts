import { readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { getHeapStatistics, writeHeapSnapshot } from "node:v8";
import { NativeConnection, type WorkerOptions } from "@temporalio/worker";
import { SessionClient } from "../../src/client/index.ts";
import { createModelProvider } from "../../src/llm/model-provider.ts";
import { createSessionWorker } from "../../src/worker/session-worker.ts";
import { globalSetup, globalTeardown } from "../support/global-setup.ts";
import { shippedAgent } from "../support/shipped-agents.ts";
import { sharedBundle, testServer, uniqueId } from "../support/temporal-env.ts";
import { testModelAccess } from "../support/test-model-access.ts";
import { shortMessage } from "./support/long-session.ts";

// What one cached session costs the worker's heap, and in which objects. Run with
//   npm exec -- node --expose-gc test/bench/memory-per-session.ts [first] [second] [--snapshots]
// It caches `first` sessions (one short turn each, scripted model), measures the heap after a
// full GC, caches `second - first` more and measures again: the difference over the added
// sessions is the heap per cached session. With --snapshots it writes a heap snapshot at both
// points and prints the self size per session by constructor (the table in the README).
// Workflows run on the main thread (the SDK's debugMode, same reusable V8 context as the
// worker threads use) so that their heap is this process's heap.

const [first = 20, second = 120] = process.argv
  .slice(2)
  .filter((arg) => !arg.startsWith("--"))
  .map(Number);
const withSnapshots = process.argv.includes("--snapshots");
const gc = (globalThis as { gc?: () => void }).gc;
if (gc === undefined) throw new Error("memory-per-session: run node with --expose-gc");
const fullGc = gc;

interface Snapshot {
  snapshot: { meta: { node_fields: string[]; node_types: [string[]] }; node_count: number };
  nodes: number[];
  strings: string[];
}

/** Self size and count per "type:constructor" of a heap snapshot file. */
function sizesByConstructor(path: string): Map<string, { bytes: number; count: number }> {
  const parsed = JSON.parse(readFileSync(path, "utf8")) as Snapshot;
  const fields = parsed.snapshot.meta.node_fields;
  const width = fields.length;
  const typeAt = fields.indexOf("type");
  const nameAt = fields.indexOf("name");
  const sizeAt = fields.indexOf("self_size");
  const types = parsed.snapshot.meta.node_types[0];
  const sizes = new Map<string, { bytes: number; count: number }>();
  for (let node = 0; node < parsed.nodes.length; node += width) {
    const type = types[parsed.nodes[node + typeAt] ?? 0] ?? "?";
    const rawName = parsed.strings[parsed.nodes[node + nameAt] ?? 0] ?? "?";
    // Strings and code are grouped by kind: their "names" are their contents.
    const name =
      type === "object" || type === "closure" || type === "native" ? rawName.slice(0, 60) : "";
    const key = `${type}:${name}`;
    const entry = sizes.get(key) ?? { bytes: 0, count: 0 };
    entry.bytes += parsed.nodes[node + sizeAt] ?? 0;
    entry.count += 1;
    sizes.set(key, entry);
  }
  return sizes;
}

function heapUsed(): number {
  fullGc();
  fullGc();
  return getHeapStatistics().used_heap_size;
}

await globalSetup();
const { address, namespace } = testServer();
const taskQueue = uniqueId("memory-per-session");
const inMainThread = {
  name: "memory-per-session-main-thread",
  configureWorker: (options: WorkerOptions): WorkerOptions => ({
    ...options,
    debugMode: true,
    maxCachedWorkflows: second + 10,
  }),
};
const connection = await NativeConnection.connect({ address, plugins: [inMainThread] });
const worker = await createSessionWorker({
  connection,
  namespace,
  taskQueue,
  modelProvider: createModelProvider({ scripted: {} }, testModelAccess),
  workflowBundle: await sharedBundle(),
});
const running = worker.run();
const { connectClient } = await import("../../src/temporal-connection.ts");
const { Client } = await import("@temporalio/client");
const clientConnection = await connectClient({ address });
const sessions = new SessionClient(
  new Client({ connection: clientConnection, namespace }),
  taskQueue,
);
const template = shippedAgent("cognitive-reasoner");

async function cacheSessions(count: number): Promise<void> {
  const ids = Array.from({ length: count }, () => uniqueId("mem"));
  for (let start = 0; start < ids.length; start += 10) {
    await Promise.all(
      ids.slice(start, start + 10).map(async (sessionId) => {
        const result = await sessions.sendWithStart({ template, sessionId }, shortMessage(1), "m1");
        if (result.error !== undefined) throw new Error(`${sessionId}: ${result.error}`);
      }),
    );
  }
}

const snapshotDir = tmpdir();
const snapshots: string[] = [];
const measure = (label: string) => {
  const used = heapUsed();
  const cached = worker.getStatus().numCachedWorkflows;
  console.log(`${label}: ${cached} cached sessions, heap used ${(used / 2 ** 20).toFixed(1)} MiB`);
  if (withSnapshots)
    snapshots.push(writeHeapSnapshot(join(snapshotDir, `${taskQueue}-${label}.heapsnapshot`)));
  return { used, cached };
};

try {
  await cacheSessions(first);
  const before = measure("first");
  await cacheSessions(second - first);
  const afterMore = measure("second");
  const added = afterMore.cached - before.cached;
  const perSession = (afterMore.used - before.used) / added;
  console.log(
    `heap per cached session: ${(perSession / 2 ** 20).toFixed(3)} MiB (${added} sessions added)`,
  );
  worker.shutdown();
  await running;
  if (withSnapshots) {
    const [a, b] = snapshots.map(sizesByConstructor);
    if (a === undefined || b === undefined) throw new Error("memory-per-session: no snapshots");
    const rows = [...b.entries()]
      .map(([key, entry]) => {
        const old = a.get(key) ?? { bytes: 0, count: 0 };
        return {
          key,
          bytes: (entry.bytes - old.bytes) / added,
          count: (entry.count - old.count) / added,
        };
      })
      .sort((x, y) => y.bytes - x.bytes)
      .slice(0, 40);
    console.log("per cached session, by type:constructor (self size):");
    for (const row of rows)
      console.log(
        `  ${(row.bytes / 1024).toFixed(1).padStart(8)} KiB ${row.count.toFixed(0).padStart(7)}  ${row.key}`,
      );
  }
} finally {
  for (const path of snapshots) rmSync(path, { force: true });
  if (worker.getState() === "RUNNING") {
    worker.shutdown();
    await running;
  }
  await connection.close();
  await clientConnection.close();
  await globalTeardown();
}
