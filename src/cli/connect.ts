import { Client } from "@temporalio/client";
import { SessionClient } from "../client/index.ts";
import {
  temporalConnectSettings,
  type TemporalConnectSettings,
  connectClient,
} from "../temporal-connection.ts";
import type { CliContext } from "./cli-context.ts";
import { CliError } from "./cli-error.ts";
import { cliSettings } from "./cli-env.ts";
import { ExitCode } from "./exit-codes.ts";
import { probeTcp } from "./tcp-probe.ts";

export interface Connected {
  settings: TemporalConnectSettings;
  taskQueue: string;
  client: Client;
  sessions: SessionClient;
}

export const connectHint =
  "Start a local one with `agentdock-temporal dev`, or point the CLI at yours with TEMPORAL_ADDRESS " +
  "(and TEMPORAL_NAMESPACE, TEMPORAL_API_KEY, TEMPORAL_TLS_*, or TEMPORAL_PROFILE with a config file).";

export function unreachable(address: string, reason: string, cause?: unknown): CliError {
  return new CliError(
    `cannot connect to Temporal at ${address}: ${reason}\n${connectHint}`,
    ExitCode.unreachable,
    { cause },
  );
}

/** Temporal's environment configuration, or exit 3 with what is wrong in it. */
export function connectSettings(context: CliContext): TemporalConnectSettings {
  try {
    return temporalConnectSettings(context.env);
  } catch (error) {
    throw new CliError(
      `cannot read Temporal's connection settings: ${error instanceof Error ? error.message : String(error)}\n${connectHint}`,
      ExitCode.unreachable,
      { cause: error },
    );
  }
}

/**
 * Opens a connection (client or worker kind), first probing the address so a refused port fails
 * fast; any failure becomes a CliError with exit code 3 naming the address.
 */
export async function connectOrExplain<C>(address: string, connect: () => Promise<C>): Promise<C> {
  const probe = await probeTcp(address);
  if (probe?.reachable === false) throw unreachable(address, probe.reason);
  try {
    return await connect();
  } catch (error) {
    throw unreachable(address, error instanceof Error ? error.message : String(error), error);
  }
}

/**
 * Connects a client with Temporal's environment configuration and runs `use`; the connection is
 * closed afterwards. An unreachable server is a CliError with exit code 3 naming the address.
 */
export async function withSessions<T>(
  context: CliContext,
  use: (connected: Connected) => Promise<T>,
): Promise<T> {
  const { taskQueue } = cliSettings(context);
  const settings = connectSettings(context);
  const connection = await connectOrExplain(settings.address, () =>
    connectClient(settings.connectionOptions),
  );
  try {
    const client = new Client({ connection, namespace: settings.namespace });
    return await use({
      settings,
      taskQueue,
      client,
      sessions: new SessionClient(client, taskQueue),
    });
  } finally {
    await connection.close();
  }
}
