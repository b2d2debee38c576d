import { connect } from "node:net";

export type ProbeResult = { reachable: true } | { reachable: false; reason: string } | undefined;

/** `host:port` or `[v6]:port`; undefined when the address has another shape. */
function hostAndPort(address: string): { host: string; port: number } | undefined {
  const match = /^(?:\[([^\]]+)\]|([^:[\]]+)):(\d{1,5})$/.exec(address);
  if (match === null) return undefined;
  const host = match[1] ?? match[2];
  const port = Number(match[3]);
  return host === undefined || port < 1 || port > 65535 ? undefined : { host, port };
}

const reasons: Record<string, string> = {
  ECONNREFUSED: "connection refused (nothing listens there)",
  ENOTFOUND: "unknown host",
  EAI_AGAIN: "the host name could not be resolved",
  EHOSTUNREACH: "host unreachable",
  ENETUNREACH: "network unreachable",
};

/**
 * A plain TCP connect before gRPC: a refused port or an unknown host answers in milliseconds,
 * where the gRPC client keeps retrying until its 10 s connect deadline. Undefined when the probe
 * cannot tell (other address shapes, slow networks): the gRPC connect then decides.
 */
export async function probeTcp(address: string, timeoutMs = 3_000): Promise<ProbeResult> {
  const target = hostAndPort(address);
  if (target === undefined) return undefined;
  return new Promise((resolve) => {
    const socket = connect(target);
    const done = (result: ProbeResult): void => {
      socket.destroy();
      resolve(result);
    };
    socket.setTimeout(timeoutMs, () => {
      done(undefined);
    });
    socket.once("connect", () => {
      done({ reachable: true });
    });
    socket.once("error", (error: NodeJS.ErrnoException) => {
      const reason = reasons[error.code ?? ""];
      done(reason === undefined ? undefined : { reachable: false, reason });
    });
  });
}
