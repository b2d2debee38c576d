import { readdirSync, readFileSync, readlinkSync } from "node:fs";
import { createServer } from "node:net";

/** Whether `port` can be bound on `host` right now. */
export function portIsFree(host: string, port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const server = createServer();
    server.unref();
    server.once("error", () => {
      resolve(false);
    });
    server.listen({ host, port, exclusive: true }, () => {
      server.close(() => {
        resolve(true);
      });
    });
  });
}

/**
 * The process listening on TCP `port`, as "pid 123 (command line)", when the OS tells (Linux
 * /proc, for processes we may inspect); undefined otherwise.
 */
export function portHolder(port: number): string | undefined {
  const inodes = listeningInodes(port);
  if (inodes.size === 0) return undefined;
  let pids: string[];
  try {
    pids = readdirSync("/proc").filter((entry) => /^\d+$/.test(entry));
  } catch {
    return undefined;
  }
  for (const pid of pids) {
    let fds: string[];
    try {
      fds = readdirSync(`/proc/${pid}/fd`);
    } catch {
      continue;
    }
    for (const fd of fds) {
      let target: string;
      try {
        target = readlinkSync(`/proc/${pid}/fd/${fd}`);
      } catch {
        continue;
      }
      const inode = /^socket:\[(\d+)\]$/.exec(target)?.[1];
      if (inode !== undefined && inodes.has(inode)) return `pid ${pid} (${commandLine(pid)})`;
    }
  }
  return undefined;
}

/** The command line of `pid`, shortened; "?" when it cannot be read. */
export function commandLine(pid: number | string): string {
  try {
    const text = readFileSync(`/proc/${pid}/cmdline`, "utf8").replaceAll("\0", " ").trim();
    return text.length > 200 ? `${text.slice(0, 200)}…` : text;
  } catch {
    return "?";
  }
}

/** Socket inodes listening on `port` (state 0A) in /proc/net/tcp and tcp6. */
function listeningInodes(port: number): Set<string> {
  const hexPort = port.toString(16).toUpperCase().padStart(4, "0");
  const inodes = new Set<string>();
  for (const table of ["/proc/net/tcp", "/proc/net/tcp6"]) {
    let text: string;
    try {
      text = readFileSync(table, "utf8");
    } catch {
      continue;
    }
    for (const line of text.split("\n").slice(1)) {
      const fields = line.trim().split(/\s+/);
      const local = fields[1];
      if (local?.endsWith(`:${hexPort}`) === true && fields[3] === "0A" && fields[9] !== undefined)
        inodes.add(fields[9]);
    }
  }
  return inodes;
}
