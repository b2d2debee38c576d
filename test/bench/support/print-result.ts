/** A result's plain figures as one table, then each list of rows (growth windows…) as its own. */
export function printResult(result: object): void {
  const figures: Record<string, unknown> = {};
  const lists: [string, object[]][] = [];
  for (const [key, value] of Object.entries(result)) {
    if (Array.isArray(value) && value.some((item) => typeof item === "object"))
      lists.push([key, value as object[]]);
    else if (Array.isArray(value)) figures[key] = value.join(", ");
    else figures[key] = typeof value === "object" && value !== null ? JSON.stringify(value) : value;
  }
  console.table(figures);
  for (const [key, rows] of lists) {
    console.log(`  ${key}:`);
    console.table(rows.map(flatten));
  }
}

/** Nested objects in a row (a worker's options…) shown as compact JSON. */
function flatten(row: object): Record<string, unknown> {
  return Object.fromEntries(
    Object.entries(row).map(([key, value]) => [
      key,
      typeof value === "object" && value !== null ? JSON.stringify(value) : value,
    ]),
  );
}
