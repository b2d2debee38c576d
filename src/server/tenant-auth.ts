import { createHash, timingSafeEqual } from "node:crypto";
import type { MiddlewareHandler } from "hono";
import { bearerAuth } from "hono/bearer-auth";
import { DEFAULT_TENANT } from "../session/index.ts";
import type { ApiEnv } from "./api-context.ts";
import { ApiError } from "./api-error.ts";
import type { TenantToken } from "./tenant-tokens.ts";

const digest = (value: string): Buffer => createHash("sha256").update(value).digest();
const realm = "agentdock-temporal";

/**
 * Bearer auth that also names the caller's tenant (`c.var.tenant`). Without tokens the API is
 * open and every caller is the default tenant. Tokens are compared in constant time, all of
 * them every time, so timing does not tell which tenant's token was close.
 */
export function tenantAuth(tokens: readonly TenantToken[]): MiddlewareHandler<ApiEnv> {
  if (tokens.length === 0) {
    return async (c, next) => {
      c.set("tenant", DEFAULT_TENANT);
      await next();
    };
  }
  const table = tokens.map(({ tenant, token }) => ({ tenant, digest: digest(token) }));
  const missing = (): never => {
    throw new ApiError(
      401,
      "unauthorized",
      "send the API token as 'Authorization: Bearer <token>'",
      {
        headers: { "www-authenticate": `Bearer realm="${realm}"` },
      },
    );
  };
  return bearerAuth<ApiEnv>({
    realm,
    verifyToken: (token, c) => {
      const presented = digest(token);
      let tenant: string | undefined;
      for (const entry of table) {
        if (timingSafeEqual(presented, entry.digest)) tenant ??= entry.tenant;
      }
      if (tenant === undefined) return false;
      c.set("tenant", tenant);
      return true;
    },
    noAuthenticationHeader: { message: missing },
    invalidAuthenticationHeader: { message: missing },
    invalidToken: {
      message: () => {
        throw new ApiError(401, "unauthorized", "the bearer token is not valid", {
          headers: { "www-authenticate": `Bearer realm="${realm}", error="invalid_token"` },
        });
      },
    },
  });
}
