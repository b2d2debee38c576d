import { spawn } from "node:child_process";
import { constants } from "node:fs";
import { access, mkdir, rename, rm, stat } from "node:fs/promises";
import { homedir } from "node:os";
import { delimiter, join } from "node:path";
import { isErrno, withBuildLock } from "./build-lock.ts";
import { TemporalCliError } from "./temporal-cli-error.ts";

/** The CLI tag this project builds: newer tags carry `replace` directives `go install` refuses. */
export const temporalCliVersion = "1.5.1";
export const temporalCliPackage = `github.com/temporalio/cli/cmd/temporal@v${temporalCliVersion}`;

export type TemporalCliSource = "env" | "path" | "cache" | "built";

export interface ResolvedTemporalCli {
  path: string;
  source: TemporalCliSource;
}

export interface EnsureTemporalCliOptions {
  /** The process environment, read by the entry point: TEMPORAL_CLI, PATH, XDG_CACHE_HOME, HOME. */
  env: Record<string, string | undefined>;
  onProgress?: (line: string) => void;
}

const exeSuffix = process.platform === "win32" ? ".exe" : "";

/**
 * Finds the Temporal CLI: `TEMPORAL_CLI`, then `temporal` on PATH, then the cached build,
 * else builds it once with `go install` into the cache (other processes wait on a lock).
 */
export async function ensureTemporalCli(
  opts: EnsureTemporalCliOptions,
): Promise<ResolvedTemporalCli> {
  const { env } = opts;
  const fromEnv = env["TEMPORAL_CLI"];
  if (fromEnv !== undefined && fromEnv !== "") {
    await assertExecutable(fromEnv);
    return { path: fromEnv, source: "env" };
  }
  const onPath = await findOnPath(`temporal${exeSuffix}`, env["PATH"]);
  if (onPath !== undefined) return { path: onPath, source: "path" };

  const dir = temporalCliCacheDir(env);
  const cached = join(dir, `temporal${exeSuffix}`);
  if (await isExecutable(cached)) return { path: cached, source: "cache" };

  const go = await findOnPath(`go${exeSuffix}`, env["PATH"]);
  if (go === undefined) {
    throw new TemporalCliError(
      `No Temporal CLI found (TEMPORAL_CLI is unset, no \`temporal\` on PATH, nothing at ${cached}) ` +
        `and Go is not installed to build one. Install Go (https://go.dev/dl/) so the project can ` +
        `run \`go install ${temporalCliPackage}\`, or set TEMPORAL_CLI to a temporal binary.`,
    );
  }
  await mkdir(dir, { recursive: true });
  return withBuildLock(
    {
      lockDir: `${dir}.lock`,
      onWait: () => {
        opts.onProgress?.(`waiting for another process to finish building the Temporal CLI…`);
      },
    },
    async () => {
      // Whoever held the lock before us may have built it already.
      if (await isExecutable(cached)) return { path: cached, source: "cache" };
      opts.onProgress?.(
        `building the Temporal CLI v${temporalCliVersion} with go install (first run only, takes a few minutes)…`,
      );
      await goInstall(go, dir, cached, env, opts.onProgress);
      return { path: cached, source: "built" };
    },
  );
}

/** `<XDG_CACHE_HOME or ~/.cache>/agentdock-temporal/cli-<version>`, where the built CLI lives. */
export function temporalCliCacheDir(env: Record<string, string | undefined>): string {
  const xdg = env["XDG_CACHE_HOME"];
  const cacheHome =
    xdg !== undefined && xdg !== "" ? xdg : join(env["HOME"] ?? homedir(), ".cache");
  return join(cacheHome, "agentdock-temporal", `cli-${temporalCliVersion}`);
}

async function goInstall(
  go: string,
  dir: string,
  target: string,
  env: Record<string, string | undefined>,
  onProgress: ((line: string) => void) | undefined,
): Promise<void> {
  // Build into a private folder and rename, so nobody ever sees a half-written binary.
  const staging = join(dir, `.build-${process.pid}`);
  await rm(staging, { recursive: true, force: true });
  await mkdir(staging, { recursive: true });
  try {
    const output = await run(
      go,
      ["install", temporalCliPackage],
      { ...env, GOBIN: staging },
      onProgress,
    );
    if (output.code !== 0) {
      throw new TemporalCliError(
        `\`go install ${temporalCliPackage}\` failed (exit ${output.code}). ` +
          `Fix the Go build (it needs the Go module proxy or a filled module cache) ` +
          `or set TEMPORAL_CLI to a temporal binary.\n${output.tail}`,
      );
    }
    await rename(join(staging, `temporal${exeSuffix}`), target);
  } finally {
    await rm(staging, { recursive: true, force: true });
  }
}

function run(
  command: string,
  args: string[],
  env: Record<string, string | undefined>,
  onProgress: ((line: string) => void) | undefined,
): Promise<{ code: number; tail: string }> {
  return new Promise((resolve, reject) => {
    const child = spawn(command, args, { env, stdio: ["ignore", "pipe", "pipe"] });
    let tail = "";
    const onData = (chunk: Buffer): void => {
      const text = chunk.toString("utf8");
      tail = (tail + text).slice(-4_000);
      for (const line of text.split("\n")) if (line.trim() !== "") onProgress?.(line);
    };
    child.stdout.on("data", onData);
    child.stderr.on("data", onData);
    child.on("error", reject);
    child.on("close", (code, signal) => {
      resolve({ code: code ?? (signal === null ? 1 : 128), tail });
    });
  });
}

async function assertExecutable(path: string): Promise<void> {
  let isFile: boolean;
  try {
    isFile = (await stat(path)).isFile();
  } catch (error) {
    if (!isErrno(error, "ENOENT") && !isErrno(error, "ENOTDIR")) throw error;
    throw new TemporalCliError(
      `TEMPORAL_CLI is set to ${JSON.stringify(path)}, but no file exists there. ` +
        `Point TEMPORAL_CLI at a temporal binary, or unset it to use PATH or the project's own build.`,
    );
  }
  if (!isFile || !(await isExecutable(path))) {
    throw new TemporalCliError(
      `TEMPORAL_CLI is set to ${JSON.stringify(path)}, which is not an executable file. ` +
        `Point TEMPORAL_CLI at a temporal binary (chmod +x it), or unset it.`,
    );
  }
}

async function findOnPath(name: string, pathVar: string | undefined): Promise<string | undefined> {
  for (const dir of (pathVar ?? "").split(delimiter)) {
    if (dir === "") continue;
    const candidate = join(dir, name);
    if (await isExecutable(candidate)) return candidate;
  }
  return undefined;
}

async function isExecutable(path: string): Promise<boolean> {
  try {
    if (!(await stat(path)).isFile()) return false;
    await access(path, constants.X_OK);
    return true;
  } catch {
    return false;
  }
}
