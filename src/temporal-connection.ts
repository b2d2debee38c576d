import { Connection, type ConnectionOptions } from "@temporalio/client";
import { loadClientConnectConfig } from "@temporalio/envconfig";
import type { NativeConnectionOptions } from "@temporalio/worker";
import { temporalGrpcRetry } from "./temporal-grpc-retry.ts";

export const DEFAULT_TEMPORAL_ADDRESS = "127.0.0.1:7233";

export interface TemporalConnectSettings {
  address: string;
  namespace: string;
  connectionOptions: NativeConnectionOptions;
}

/**
 * Connection settings from Temporal's environment configuration (TEMPORAL_ADDRESS,
 * TEMPORAL_NAMESPACE, TEMPORAL_API_KEY, TEMPORAL_TLS_*, TEMPORAL_PROFILE and the config file), so
 * the same worker and clients reach a dev server, a self-hosted cluster or Temporal Cloud.
 */
export function temporalConnectSettings(
  env: Record<string, string | undefined>,
): TemporalConnectSettings {
  const defined = Object.fromEntries(
    Object.entries(env).filter((entry): entry is [string, string] => entry[1] !== undefined),
  );
  const profile = defined["TEMPORAL_PROFILE"];
  const config = loadClientConnectConfig({
    overrideEnvVars: defined,
    ...(profile === undefined ? {} : { profile }),
  });
  const address = config.connectionOptions.address ?? DEFAULT_TEMPORAL_ADDRESS;
  return {
    address,
    namespace: config.namespace ?? "default",
    connectionOptions: { ...config.connectionOptions, address },
  };
}

/**
 * `Connection.connect` for every client connection of the product: Temporal's usual retries, but
 * ones that end when the connection closes (see temporal-grpc-retry.ts). `interceptors` given
 * in `options` replace them (the HTTP API passes its own decider, built the same way).
 */
export function connectClient(options: ConnectionOptions): Promise<Connection> {
  return Connection.connect({ interceptors: [temporalGrpcRetry()], ...options });
}

/** `Connection.lazy` with the same retries as `connectClient`. */
export function lazyClient(options: ConnectionOptions): Connection {
  return Connection.lazy({ interceptors: [temporalGrpcRetry()], ...options });
}
