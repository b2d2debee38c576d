import { access, chmod, constants, copyFile, mkdir, readdir, rename, rm } from "node:fs/promises";
import { dirname, join } from "node:path";
import { homedir } from "node:os";
import { withBuildLock } from "../dev-server/build-lock.ts";
import { findOnPath } from "../dev-server/parent-death-signal.ts";
import { ClusterError } from "./cluster-error.ts";
import { runCommand } from "./run-command.ts";

/** The server release the Temporal CLI v1.5.1 embeds: the tests' dev server runs the same one. */
export const temporalServerVersion = "1.29.1";
const modulePath = "go.temporal.io/server";
const packages = [
  `${modulePath}/cmd/server@v${temporalServerVersion}`,
  `${modulePath}/cmd/tools/sql@v${temporalServerVersion}`,
];

/** The built binaries and the files of the server's module the cluster reads. */
export interface TemporalServerBuild {
  /** `temporal-server`: every service in one process. */
  server: string;
  /** `temporal-sql-tool`: creates databases and applies the versioned schemas. */
  sqlTool: string;
  /** `schema/postgresql/v12/{temporal,visibility}/versioned`, copied from the module. */
  schemaDir: string;
  /** `config/development-postgres12.yaml`, the starting point of the cluster's config. */
  configTemplate: string;
  /** `config/dynamicconfig/development-sql.yaml`. */
  dynamicConfigTemplate: string;
}

/** `<XDG_CACHE_HOME or ~/.cache>/agentdock-temporal/server-<version>`: one build per machine. */
export function temporalServerCacheDir(env: Readonly<Record<string, string | undefined>>): string {
  const xdg = env["XDG_CACHE_HOME"];
  const cacheHome =
    xdg !== undefined && xdg !== "" ? xdg : join(env["HOME"] ?? homedir(), ".cache");
  return join(cacheHome, "agentdock-temporal", `server-${temporalServerVersion}`);
}

function layout(dir: string): TemporalServerBuild {
  return {
    server: join(dir, "temporal-server"),
    sqlTool: join(dir, "temporal-sql-tool"),
    schemaDir: join(dir, "schema", "postgresql", "v12"),
    configTemplate: join(dir, "config", "development-postgres12.yaml"),
    dynamicConfigTemplate: join(dir, "config", "dynamicconfig", "development-sql.yaml"),
  };
}

/**
 * The Temporal server and its SQL tool, built once with `go install` from the server's Go module
 * (no Docker, no download but Go modules) and cached with the module's schemas and configs, so a
 * later start needs neither Go nor the module cache. Other processes wait on a lock meanwhile.
 */
export async function ensureTemporalServer(opts: {
  env: Readonly<Record<string, string | undefined>>;
  onProgress?: (line: string) => void;
}): Promise<TemporalServerBuild & { built: boolean }> {
  const dir = temporalServerCacheDir(opts.env);
  const build = layout(dir);
  if (await isComplete(build)) return { ...build, built: false };
  const go = findOnPath("go", opts.env["PATH"]);
  if (go === undefined) {
    throw new ClusterError(
      `No Temporal server at ${dir}, and Go is not installed to build it. Install Go (its module proxy or a filled module cache is needed once), so the cluster can run \`go install ${packages.join(" ")}\`.`,
    );
  }
  await mkdir(join(dir, ".."), { recursive: true });
  return withBuildLock(
    {
      lockDir: `${dir}.lock`,
      onWait: () => {
        opts.onProgress?.("waiting for another process to finish building the Temporal server…");
      },
    },
    async () => {
      if (await isComplete(build)) return { ...build, built: false };
      opts.onProgress?.(
        `building the Temporal server v${temporalServerVersion} and its SQL tool with go install (first run only: a few minutes)…`,
      );
      await buildInto(go, dir, opts.env, opts.onProgress);
      return { ...build, built: true };
    },
  );
}

async function buildInto(
  go: string,
  dir: string,
  env: Readonly<Record<string, string | undefined>>,
  onProgress: ((line: string) => void) | undefined,
): Promise<void> {
  // Everything goes to a private folder renamed at the end: nobody sees half a build.
  const staging = `${dir}.build-${process.pid}`;
  await rm(staging, { recursive: true, force: true });
  await mkdir(staging, { recursive: true });
  try {
    const started = Date.now();
    const installed = await runCommand(go, ["install", ...packages], {
      env: { ...env, GOBIN: staging },
      onLine: onProgress,
    });
    if (installed.code !== 0) {
      throw new ClusterError(
        `\`go install ${packages.join(" ")}\` failed (exit ${installed.code}). It needs the Go module proxy or a module cache holding the server's modules.\n${installed.tail}`,
      );
    }
    const modCache = await runCommand(go, ["env", "GOMODCACHE"], { env });
    const moduleDir = join(modCache.tail.trim(), `${modulePath}@v${temporalServerVersion}`);
    const target = layout(staging);
    await rename(join(staging, "server"), target.server);
    await rename(join(staging, "sql"), target.sqlTool);
    await copyWritable(join(moduleDir, "schema", "postgresql", "v12"), target.schemaDir);
    await copyWritable(
      join(moduleDir, "config", "development-postgres12.yaml"),
      target.configTemplate,
    );
    await copyWritable(
      join(moduleDir, "config", "dynamicconfig", "development-sql.yaml"),
      target.dynamicConfigTemplate,
    );
    await rm(dir, { recursive: true, force: true });
    await rename(staging, dir);
    onProgress?.(
      `built the Temporal server in ${Math.round((Date.now() - started) / 1000)} s (cached in ${dir})`,
    );
  } finally {
    await rm(staging, { recursive: true, force: true });
  }
}

/** Copies a file or folder out of the read-only module cache, leaving the copies writable. */
async function copyWritable(from: string, to: string): Promise<void> {
  const entries = await readdir(from, { withFileTypes: true }).catch(() => undefined);
  if (entries === undefined) {
    await mkdir(dirname(to), { recursive: true });
    await copyFile(from, to);
    await chmod(to, 0o644);
    return;
  }
  await mkdir(to, { recursive: true });
  for (const entry of entries) await copyWritable(join(from, entry.name), join(to, entry.name));
}

async function isComplete(build: TemporalServerBuild): Promise<boolean> {
  try {
    await access(build.server, constants.X_OK);
    await access(build.sqlTool, constants.X_OK);
    await access(build.configTemplate);
    await access(build.dynamicConfigTemplate);
    await access(join(build.schemaDir, "temporal", "versioned"));
    await access(join(build.schemaDir, "visibility", "versioned"));
    return true;
  } catch {
    return false;
  }
}
