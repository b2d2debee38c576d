import { freePort } from "../dev-server/free-port.ts";
import { portHolder, portIsFree } from "../dev-server/port-holder.ts";
import { ClusterError } from "./cluster-error.ts";
import type { ServerPorts } from "./server-config.ts";

const host = "127.0.0.1";

/** The highest port the server can record for a service (a PostgreSQL SMALLINT column). */
export const maxServerPort = 32_767;

/** The ports the server's services bind, as cluster-settings.json keeps them. */
const serviceNames = [
  "frontend",
  "frontendHttp",
  "frontendMembership",
  "history",
  "historyMembership",
  "matching",
  "matchingMembership",
  "worker",
  "workerMembership",
] as const satisfies readonly (keyof ServerPorts)[];

export function servicePortsOf(ports: ServerPorts): Record<string, number> {
  return Object.fromEntries(serviceNames.map((name) => [name, ports[name]]));
}

/**
 * Every port of the cluster. Fixed ones (non-zero options) must be free; the services' ports
 * are those of the last start while they are free, else new free ones below 32768: the server
 * records each service's port in a PostgreSQL SMALLINT column (cluster_membership.rpc_port) and
 * dies on a larger one ("out of range for type smallint").
 */
export async function choosePorts(
  options: { port: number; postgresPort: number; apiPort: number | false },
  recorded: Readonly<Record<string, number>> | undefined,
): Promise<ServerPorts> {
  for (const [flag, port] of [
    ["--port", options.port],
    ["--postgres-port", options.postgresPort],
    ["--api-port", options.apiPort],
  ] as const) {
    if (typeof port === "number" && port !== 0 && !(await portIsFree(host, port))) {
      throw new ClusterError(
        `port ${port} on ${host} (${flag}) is in use by ${portHolder(port) ?? "another program"}: stop it, or choose another ${flag} (0 picks a free one)`,
      );
    }
  }
  const taken = new Set<number>([options.postgresPort, options.apiPort || 0]);
  const pick = async (name: (typeof serviceNames)[number]): Promise<number> => {
    const fixed = name === "frontend" ? options.port : 0;
    const previous = recorded?.[name];
    const port =
      fixed !== 0
        ? fixed
        : previous !== undefined &&
            previous <= maxServerPort &&
            !taken.has(previous) &&
            (await portIsFree(host, previous))
          ? previous
          : await freeServerPort(taken);
    taken.add(port);
    return port;
  };
  const services = {} as Record<(typeof serviceNames)[number], number>;
  for (const name of serviceNames) services[name] = await pick(name);
  return {
    ...services,
    postgres: options.postgresPort || (await freePort(host)),
    metrics: await freePort(host),
  };
}

async function freeServerPort(taken: ReadonlySet<number>): Promise<number> {
  // Below the OS's ephemeral range (32768 and up on Linux), which freePort draws from.
  const low = 20_000;
  for (let attempt = 0; attempt < 200; attempt++) {
    const port = low + Math.floor(Math.random() * (maxServerPort - low + 1));
    if (!taken.has(port) && (await portIsFree(host, port))) return port;
  }
  throw new ClusterError(
    `found no free port between ${low} and ${maxServerPort} on ${host} for the Temporal server's services`,
  );
}
