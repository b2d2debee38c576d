import { z } from "zod";
import { DEFAULT_TENANT, formatIssues, tenantIdSchema } from "../session/index.ts";

/** One API token and the tenant it acts for. */
export interface TenantToken {
  tenant: string;
  token: string;
}

/** Tokens travel in an Authorization header: the characters RFC 6750 allows there. */
const tokenSchema = z
  .string()
  .regex(
    /^[A-Za-z0-9._~+/-]+=*$/,
    "a token uses letters, digits and . _ ~ + / - (then optional '=')",
  );

/** The tokens file: `{"<tenant>": "<token>" | ["<token>", …]}`. */
const tokensFileSchema = z.record(
  tenantIdSchema,
  z.union([tokenSchema, z.array(tokenSchema).min(1)]),
);

/**
 * The operator's token table, from (in this order, all merged) `AGENTDOCK_API_TOKENS`
 * (`tenant:token,tenant:token`), the JSON file `AGENTDOCK_API_TOKENS_FILE`, and
 * `AGENTDOCK_API_TOKEN` (a token of the default tenant). Empty means no auth. Throws an Error
 * naming the variable on anything malformed, and when one token is given to two tenants.
 */
export function tenantTokensFromEnv(
  env: Readonly<Record<string, string | undefined>>,
  readFile: (path: string) => string,
): TenantToken[] {
  const tokens: TenantToken[] = [];
  const list = env["AGENTDOCK_API_TOKENS"]?.trim() ?? "";
  for (const entry of list === "" ? [] : list.split(",")) {
    const separator = entry.indexOf(":");
    const tenant = tenantIdSchema.safeParse(entry.slice(0, separator).trim());
    const token = tokenSchema.safeParse(entry.slice(separator + 1).trim());
    if (separator < 0 || !tenant.success || !token.success) {
      throw new Error(
        `AGENTDOCK_API_TOKENS: "${entry.slice(0, Math.max(separator, 0)).trim() || "?"}:…" must be tenant:token (${
          !tenant.success
            ? formatIssues(tenant.error)
            : !token.success
              ? formatIssues(token.error)
              : "no ':'"
        })`,
      );
    }
    tokens.push({ tenant: tenant.data, token: token.data });
  }
  const file = env["AGENTDOCK_API_TOKENS_FILE"]?.trim() ?? "";
  if (file !== "") {
    let parsed: z.ZodSafeParseResult<z.infer<typeof tokensFileSchema>>;
    try {
      parsed = tokensFileSchema.safeParse(JSON.parse(readFile(file)));
    } catch (error) {
      throw new Error(
        `AGENTDOCK_API_TOKENS_FILE: cannot read ${file} as JSON: ${error instanceof Error ? error.message : String(error)}`,
      );
    }
    if (!parsed.success) {
      throw new Error(`AGENTDOCK_API_TOKENS_FILE ${file}: ${formatIssues(parsed.error)}`);
    }
    for (const [tenant, value] of Object.entries(parsed.data)) {
      for (const token of typeof value === "string" ? [value] : value)
        tokens.push({ tenant, token });
    }
  }
  const single = env["AGENTDOCK_API_TOKEN"]?.trim() ?? "";
  if (single !== "") {
    const token = tokenSchema.safeParse(single);
    if (!token.success) throw new Error(`AGENTDOCK_API_TOKEN: ${formatIssues(token.error)}`);
    tokens.push({ tenant: DEFAULT_TENANT, token: token.data });
  }
  const owners = new Map<string, string>();
  for (const { tenant, token } of tokens) {
    const owner = owners.get(token);
    if (owner !== undefined && owner !== tenant) {
      throw new Error(`API tokens: one token is given to tenants "${owner}" and "${tenant}"`);
    }
    owners.set(token, tenant);
  }
  return tokens;
}
