/**
 * Values that are the same for every session, built once per worker instead of once per cached
 * session: the zod schemas our modules define at load.
 *
 * With the SDK's reusable V8 context each workflow evaluates its own copy of every module of the
 * bundle that is not preloaded, so a module's `z.object(...)` ran again for every session and
 * stayed in memory while the session was cached (~650 schema objects, a third of a cached
 * session's heap). Preloading those modules is not an option: the SDK deep-freezes preloaded
 * exports, and zod defines some properties of a schema on first use. This module is preloaded
 * (`sharedAcrossSessionsModule` in src/worker/session-worker.ts), so its map is the worker's, not a session's; the SDK freezes the
 * exported function but not the map's entries, and a value built on first use is never frozen.
 *
 * Only for values that hold no per-session state and whose behaviour depends on nothing but
 * their own code (schemas, lookup tables): what `build` returns is handed to every session.
 * Outside a workflow (the API, the CLI) each module loads once anyway and this is a plain memo.
 */
const built = new Map<string, { source: string; value: unknown }>();

export class SharedValueKeyError extends Error {
  constructor(key: string) {
    super(
      `sharedAcrossSessions: the key "${key}" is used by two different builders; give each call site its own key (e.g. its module path)`,
    );
    this.name = "SharedValueKeyError";
  }
}

/**
 * `build()`'s result, built by the first caller with this key and returned to every later one.
 * The key names the call site (its module path); a second builder under the same key is an error
 * rather than a silent swap of one module's values for another's.
 */
export function sharedAcrossSessions<T>(key: string, build: () => T): T {
  const source = build.toString();
  const existing = built.get(key);
  if (existing !== undefined) {
    if (existing.source !== source) throw new SharedValueKeyError(key);
    return existing.value as T;
  }
  const value = build();
  built.set(key, { source, value });
  return value;
}
