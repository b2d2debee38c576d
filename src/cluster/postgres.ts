import { existsSync, readdirSync, readFileSync, statSync } from "node:fs";
import { chmod, chown, mkdir } from "node:fs/promises";
import { dirname, join } from "node:path";
import { findOnPath } from "../dev-server/parent-death-signal.ts";
import { ClusterError } from "./cluster-error.ts";
import { startClusterProcess, type ClusterProcess } from "./cluster-process.ts";
import { runCommand } from "./run-command.ts";

/** The database user the Temporal server connects as (trust authentication, loopback only). */
export const postgresUser = "temporal";
/** The system user PostgreSQL runs as when we are root: it refuses to run as root. */
const systemUser = "postgres";

export interface PostgresBinaries {
  initdb: string;
  postgres: string;
}

/** initdb and postgres from PATH, else from Debian's /usr/lib/postgresql/<newest>/bin. */
export function findPostgres(env: Readonly<Record<string, string | undefined>>): PostgresBinaries {
  const fromPath = {
    initdb: findOnPath("initdb", env["PATH"]),
    postgres: findOnPath("postgres", env["PATH"]),
  };
  if (fromPath.initdb !== undefined && fromPath.postgres !== undefined) {
    return { initdb: fromPath.initdb, postgres: fromPath.postgres };
  }
  const root = "/usr/lib/postgresql";
  const versions = existsSync(root)
    ? readdirSync(root)
        .filter((name) => /^\d+$/.test(name))
        .sort((a, b) => Number(b) - Number(a))
    : [];
  for (const version of versions) {
    const bin = join(root, version, "bin");
    if (existsSync(join(bin, "initdb")) && existsSync(join(bin, "postgres"))) {
      return { initdb: join(bin, "initdb"), postgres: join(bin, "postgres") };
    }
  }
  throw new ClusterError(
    "PostgreSQL is not installed (no initdb and postgres on PATH or in /usr/lib/postgresql/<version>/bin). " +
      "Install Debian's package: sudo apt-get install postgresql (the cluster starts its own server in its data folder; the system service can stay stopped).",
  );
}

interface SystemUser {
  uid: number;
  gid: number;
}

function lookupUser(name: string): SystemUser | undefined {
  let passwd: string;
  try {
    passwd = readFileSync("/etc/passwd", "utf8");
  } catch {
    return undefined;
  }
  for (const line of passwd.split("\n")) {
    const [user, , uid, gid] = line.split(":");
    if (user === name && uid !== undefined && gid !== undefined) {
      return { uid: Number(uid), gid: Number(gid) };
    }
  }
  return undefined;
}

/** Who PostgreSQL runs as: ourselves, or the postgres system user when we are root. */
export function postgresRunAs(): { user?: string; owner?: SystemUser } {
  if (process.getuid?.() !== 0) return {};
  const owner = lookupUser(systemUser);
  if (owner === undefined) {
    throw new ClusterError(
      `running as root, PostgreSQL must run as the ${systemUser} user, which does not exist: install Debian's postgresql package (it creates it), or run npm run cluster as an ordinary user`,
    );
  }
  return { user: systemUser, owner };
}

/**
 * Creates `pgDir` for the database (mode 0700, owned by whoever runs PostgreSQL) and checks that
 * user can reach it: every folder above it must let it through.
 */
export async function preparePostgresDir(
  pgDir: string,
  owner: SystemUser | undefined,
): Promise<void> {
  await mkdir(pgDir, { recursive: true, mode: 0o700 });
  if (owner === undefined) return;
  await chown(pgDir, owner.uid, owner.gid);
  await chmod(pgDir, 0o700);
  for (let dir = dirname(pgDir); ; dir = dirname(dir)) {
    const { mode, uid, gid } = statSync(dir);
    const passes =
      uid === owner.uid
        ? (mode & 0o100) !== 0
        : gid === owner.gid
          ? (mode & 0o010) !== 0
          : (mode & 0o001) !== 0;
    if (!passes) {
      throw new ClusterError(
        `PostgreSQL runs as the ${systemUser} user, which cannot enter ${dir} (mode ${(mode & 0o777).toString(8)}), so it cannot reach ${pgDir}. ` +
          `Choose a --data folder it can reach (the default ./.cluster in the project, or one under /var/tmp), or allow it through: chmod o+x ${dir}`,
      );
    }
    if (dir === dirname(dir)) return;
  }
}

/** initdb, once: a folder that already holds a database is used as it is. */
export async function initPostgres(opts: {
  binaries: PostgresBinaries;
  pgDir: string;
  user: string | undefined;
  env: Readonly<Record<string, string | undefined>>;
  onProgress: (line: string) => void;
}): Promise<boolean> {
  if (existsSync(join(opts.pgDir, "PG_VERSION"))) return false;
  opts.onProgress(`creating the PostgreSQL database in ${opts.pgDir} (initdb)…`);
  const initdb = [
    ...["-D", opts.pgDir, "-U", postgresUser, "-A", "trust"],
    ...["-E", "UTF8", "--locale=C", "--no-instructions"],
  ];
  const setpriv = findOnPath("setpriv", opts.env["PATH"]);
  if (opts.user !== undefined && setpriv === undefined) {
    throw new ClusterError(
      `PostgreSQL must run as the ${opts.user} user, which needs setpriv (Debian: apt-get install util-linux)`,
    );
  }
  const [command, args] =
    opts.user === undefined || setpriv === undefined
      ? [opts.binaries.initdb, initdb]
      : [
          setpriv,
          [
            ...[`--reuid=${opts.user}`, `--regid=${opts.user}`, "--init-groups", "--"],
            ...[opts.binaries.initdb, ...initdb],
          ],
        ];
  // Its own folder as working directory: initdb fails in one its user cannot read (/root).
  const outcome = await runCommand(command, args, { env: opts.env, cwd: opts.pgDir });
  if (outcome.code !== 0) {
    throw new ClusterError(`initdb failed (exit ${outcome.code}):\n${outcome.tail}`);
  }
  return true;
}

/** The pid in `postmaster.pid` when that PostgreSQL still runs: another cluster on this folder. */
export function runningPostmaster(pgDir: string): number | undefined {
  let pid: number;
  try {
    pid = Number(readFileSync(join(pgDir, "postmaster.pid"), "utf8").split("\n")[0]);
  } catch {
    return undefined;
  }
  if (!Number.isInteger(pid) || pid <= 0) return undefined;
  try {
    process.kill(pid, 0);
    return pid;
  } catch (error) {
    return error instanceof Error && "code" in error && error.code === "EPERM" ? pid : undefined;
  }
}

/**
 * Runs PostgreSQL on 127.0.0.1:`port` only (no Unix socket: its path would depend on the data
 * folder's length and on /var/run permissions), resolving once it accepts connections.
 */
export async function startPostgres(opts: {
  binaries: PostgresBinaries;
  pgDir: string;
  port: number;
  user: string | undefined;
  env: Readonly<Record<string, string | undefined>>;
  logFile: string;
}): Promise<ClusterProcess> {
  const running = runningPostmaster(opts.pgDir);
  if (running !== undefined) {
    throw new ClusterError(
      `PostgreSQL pid ${running} already runs on ${opts.pgDir}: another npm run cluster uses this data folder. Stop it (Ctrl-C in its terminal), or give this one another --data.`,
    );
  }
  const postgres = startClusterProcess({
    name: "PostgreSQL",
    command: opts.binaries.postgres,
    args: [
      ...["-D", opts.pgDir, "-p", String(opts.port)],
      ...["-c", "listen_addresses=127.0.0.1", "-c", "unix_socket_directories="],
    ],
    env: opts.env,
    cwd: opts.pgDir,
    logFile: opts.logFile,
    ...(opts.user === undefined ? {} : { user: opts.user }),
  });
  try {
    await postgres.waitForOutput(/database system is ready to accept connections/, 60_000);
  } catch (error) {
    await postgres.stop("SIGINT");
    throw error;
  }
  return postgres;
}
