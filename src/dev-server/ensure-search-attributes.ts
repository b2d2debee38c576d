import type { Connection } from "@temporalio/client";
import { DevServerError } from "./dev-server-error.ts";
import type { SearchAttributeType } from "./search-attributes.ts";

// temporal.api.enums.v1.IndexedValueType: wire numbers, fixed by the protocol.
export const indexedValueType = {
  Text: 1,
  Keyword: 2,
  Int: 3,
  Double: 4,
  Bool: 5,
  Datetime: 6,
  KeywordList: 7,
} as const satisfies Record<SearchAttributeType, number>;

/**
 * Registers the custom search attributes the namespace lacks. `--search-attribute` only takes
 * effect when the dev server creates its SQLite file, so a reused file needs this.
 */
export async function ensureSearchAttributes(
  connection: Connection,
  namespace: string,
  wanted: Readonly<Record<string, SearchAttributeType>>,
): Promise<void> {
  const { customAttributes } = await connection.operatorService.listSearchAttributes({
    namespace,
  });
  const missing: Record<string, number> = {};
  for (const [name, type] of Object.entries(wanted)) {
    // The proto enum and our wire-number table are both plain numbers on the wire.
    const existing: number | undefined = customAttributes[name];
    if (existing === undefined) {
      missing[name] = indexedValueType[type];
    } else if (existing !== indexedValueType[type]) {
      throw new DevServerError(
        `Search attribute ${name} is registered in namespace ${namespace} with another type ` +
          `(IndexedValueType ${existing}), not ${type}. A type cannot change: use a new database ` +
          `file (delete or move the old one) or rename the attribute.`,
      );
    }
  }
  if (Object.keys(missing).length === 0) return;
  await connection.operatorService.addSearchAttributes({ namespace, searchAttributes: missing });
}
