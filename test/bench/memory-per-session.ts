import { readFileSync, rmSync } from "node:fs";
import { globalSetup, globalTeardown } from "../support/global-setup.ts";
import { testServer } from "../support/temporal-env.ts";
import { measureHeapPerSession } from "./support/heap-per-session.ts";

// What one cached session costs the worker's heap, and in which objects. Run with
//   npm exec -- node --max-old-space-size=6000 test/bench/memory-per-session.ts [first] [second] [--snapshots] [--bare]
// It caches `first` sessions (20; one short turn each, scripted model), measures the heap after a
// full GC, caches up to `second` (120) and measures again: the difference over the added
// sessions is the heap per cached session. With --snapshots it writes a heap snapshot at both
// points and prints the self size per session by type and constructor (README, "Worker memory
// and the session cache"). With --bare it measures the SDK's floor instead: a session-shaped
// workflow with no orchestration, model or streaming (7 no-op activities per turn).

const [first = 20, second = 120] = process.argv
  .slice(2)
  .filter((arg) => !arg.startsWith("--"))
  .map(Number);
const withSnapshots = process.argv.includes("--snapshots");
const workflow = process.argv.includes("--bare") ? "bare" : "session";

interface Snapshot {
  snapshot: { meta: { node_fields: string[]; node_types: [string[]] } };
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
    // Strings and code are grouped by kind: their "names" are their contents.
    const named = type === "object" || type === "closure" || type === "native";
    const name = named
      ? (parsed.strings[parsed.nodes[node + nameAt] ?? 0] ?? "?").slice(0, 60)
      : "";
    const key = `${type}:${name}`;
    const entry = sizes.get(key) ?? { bytes: 0, count: 0 };
    entry.bytes += parsed.nodes[node + sizeAt] ?? 0;
    entry.count += 1;
    sizes.set(key, entry);
  }
  return sizes;
}

await globalSetup();
let snapshots: string[] = [];
try {
  const { address, namespace } = testServer();
  const measured = await measureHeapPerSession({
    address,
    namespace,
    first,
    second,
    snapshots: withSnapshots,
    workflow,
  });
  snapshots = measured.snapshots;
  const mib = (bytes: number) => (bytes / 2 ** 20).toFixed(3);
  console.log(
    `heap used: ${mib(measured.heapBeforeBytes)} MiB with ${measured.cachedBefore} cached sessions, ${mib(measured.heapAfterBytes)} MiB with ${measured.cachedAfter}`,
  );
  console.log(`heap per cached session: ${mib(measured.bytesPerSession)} MiB`);
  const [before, after] = snapshots.map(sizesByConstructor);
  if (before !== undefined && after !== undefined) {
    const added = measured.cachedAfter - measured.cachedBefore;
    const rows = [...after.entries()]
      .map(([key, entry]) => {
        const old = before.get(key) ?? { bytes: 0, count: 0 };
        return {
          key,
          bytes: (entry.bytes - old.bytes) / added,
          count: (entry.count - old.count) / added,
        };
      })
      .sort((x, y) => y.bytes - x.bytes)
      .slice(0, 30);
    console.log("per cached session, by type:constructor (self size, objects):");
    for (const row of rows)
      console.log(
        `  ${(row.bytes / 1024).toFixed(1).padStart(8)} KiB ${row.count.toFixed(0).padStart(7)}  ${row.key}`,
      );
  }
} finally {
  for (const path of snapshots) rmSync(path, { force: true });
  await globalTeardown();
}
