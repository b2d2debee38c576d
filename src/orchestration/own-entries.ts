/**
 * The state keeps records by step or tool name (completion marks, unavailable tools, failures),
 * and names are free identifiers: `record["constructor"]` would find Object.prototype's member and
 * `record["__proto__"] = x` would replace the prototype. These read and write own keys only.
 */
export function ownEntry<T>(
  record: Readonly<Record<string, T>> | undefined,
  key: string,
): T | undefined {
  return record !== undefined && Object.hasOwn(record, key) ? record[key] : undefined;
}

/** `record[key] = value` as an own key, "__proto__" included (as JSON.parse would make it). */
export function setOwnEntry<T>(record: Record<string, T>, key: string, value: T): void {
  // An assignment everywhere else: defineProperty is several times slower.
  if (key !== "__proto__") record[key] = value;
  else
    Object.defineProperty(record, key, {
      value,
      enumerable: true,
      writable: true,
      configurable: true,
    });
}
