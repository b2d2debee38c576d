import { z } from "zod";
import { sharedAcrossSessions } from "../orchestration/shared-across-sessions.ts";

/** The tenant of sessions started by code that predates tenants, and of a lone API token. */
export const DEFAULT_TENANT = "default";

/** Tenant ids: they end up in a search attribute and a visibility query, so nothing to escape. */
export const tenantIdSchema = sharedAcrossSessions("src/session/tenants:tenantIdSchema", () =>
  z
    .string()
    .regex(
      /^[a-z0-9][a-z0-9_-]{0,62}$/,
      "a tenant id uses lower-case letters, digits, '_' and '-' (at most 63)",
    ),
);

/** The tenant a session belongs to: its creator's, or the default one for older sessions. */
export function tenantOf(owner: { tenant?: string | undefined }): string {
  return owner.tenant ?? DEFAULT_TENANT;
}
