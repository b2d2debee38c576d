export { createApiServer, type ApiServer, type ApiServerOptions } from "./api-server.ts";
