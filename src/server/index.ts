export { createApiServer, type ApiServer, type ApiServerOptions } from "./api-server.ts";
export { tenantTokensFromEnv, type TenantToken } from "./tenant-tokens.ts";
