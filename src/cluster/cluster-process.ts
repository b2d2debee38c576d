import { spawn } from "node:child_process";
import { createWriteStream } from "node:fs";
import { findOnPath, tiedToParent } from "../dev-server/parent-death-signal.ts";
import { ClusterError } from "./cluster-error.ts";

export interface ProcessExit {
  code: number | null;
  signal: NodeJS.Signals | null;
}

/** One process of the cluster: its output goes to a log file, its life is tied to ours. */
export interface ClusterProcess {
  /** "PostgreSQL", "Temporal server", "worker 1"… */
  name: string;
  pid: number;
  logFile: string;
  /** Settles when the process ends, for whatever reason. */
  exited: Promise<ProcessExit>;
  /** Resolves once `pattern` shows in the output, with its match; rejects if the process ends first or after `timeoutMs`. */
  waitForOutput(pattern: RegExp, timeoutMs: number): Promise<RegExpExecArray>;
  /** The end of its output, for error messages. */
  tail(): string;
  running(): boolean;
  /** `signal` (SIGTERM by default), SIGKILL after `graceMs`; resolves once it has ended. */
  stop(signal?: NodeJS.Signals, graceMs?: number): Promise<ProcessExit>;
}

export interface StartProcessOptions {
  name: string;
  command: string;
  args: readonly string[];
  env: Readonly<Record<string, string | undefined>>;
  cwd: string;
  logFile: string;
  /** Runs it as this system user (PostgreSQL refuses root); needs setpriv and root. */
  user?: string;
}

function launchCommand(opts: StartProcessOptions): { command: string; args: string[] } {
  if (opts.user === undefined) return tiedToParent(opts.command, opts.args, opts.env);
  const setpriv = findOnPath("setpriv", opts.env["PATH"]);
  if (setpriv === undefined) {
    throw new ClusterError(
      `${opts.name} must run as the ${opts.user} user, which needs setpriv (Debian: apt-get install util-linux)`,
    );
  }
  // One setpriv for both: a later change of user would clear the parent-death signal.
  return {
    command: setpriv,
    args: [
      ...[`--reuid=${opts.user}`, `--regid=${opts.user}`, "--init-groups"],
      ...["--pdeathsig", "SIGTERM", "--", opts.command, ...opts.args],
    ],
  };
}

/**
 * Starts a process whose stdout and stderr are appended to `logFile`. Through setpriv the OS
 * ends it when this process dies, even by SIGKILL, so a killed `npm run cluster` leaves nothing.
 */
export function startClusterProcess(opts: StartProcessOptions): ClusterProcess {
  const launch = launchCommand(opts);
  const log = createWriteStream(opts.logFile, { flags: "a" });
  log.write(`\n=== ${new Date().toISOString()} ${opts.command} ${opts.args.join(" ")}\n`);
  const child = spawn(launch.command, launch.args, {
    cwd: opts.cwd,
    env: opts.env,
    stdio: ["ignore", "pipe", "pipe"],
    // Its own process group: Ctrl-C in the terminal reaches only us, and we stop the parts in
    // order (API and workers before the server, the server before PostgreSQL).
    detached: true,
  });
  let output = "";
  const listeners = new Set<() => void>();
  const onData = (chunk: Buffer): void => {
    output = (output + chunk.toString("utf8")).slice(-64_000);
    log.write(chunk);
    for (const listener of listeners) listener();
  };
  child.stdout.on("data", onData);
  child.stderr.on("data", onData);
  const exited = new Promise<ProcessExit>((resolve) => {
    child.once("close", (code, signal) => {
      log.end();
      resolve({ code, signal });
    });
    child.once("error", (error) => {
      output += `\n${error.message}`;
      log.end();
      resolve({ code: 127, signal: null });
    });
  });
  const tail = (): string => {
    const text = output.trim().split("\n").slice(-30).join("\n");
    return text === "" ? `(${opts.name} printed nothing; log: ${opts.logFile})` : text;
  };
  let stopping: Promise<ProcessExit> | undefined;
  return {
    name: opts.name,
    pid: child.pid ?? -1,
    logFile: opts.logFile,
    exited,
    tail,
    running: () => child.exitCode === null && child.signalCode === null,
    waitForOutput: (pattern, timeoutMs) =>
      new Promise((resolve, reject) => {
        const check = (): void => {
          const match = pattern.exec(output);
          if (match === null) return;
          done();
          resolve(match);
        };
        const timer = setTimeout(() => {
          done();
          reject(
            new ClusterError(
              `${opts.name} did not get ready within ${Math.round(timeoutMs / 1000)} s (log: ${opts.logFile}):\n${tail()}`,
            ),
          );
        }, timeoutMs);
        const done = (): void => {
          clearTimeout(timer);
          listeners.delete(check);
        };
        listeners.add(check);
        void exited.then(({ code, signal }) => {
          if (!listeners.has(check)) return;
          done();
          reject(
            new ClusterError(
              `${opts.name} exited (${signal ?? `exit ${code}`}) before it was ready (log: ${opts.logFile}):\n${tail()}`,
            ),
          );
        });
        check();
      }),
    stop: (signal = "SIGTERM", graceMs = 15_000) => {
      stopping ??= (async () => {
        if (child.exitCode === null && child.signalCode === null && child.pid !== undefined) {
          child.kill(signal);
          const timer = setTimeout(() => child.kill("SIGKILL"), graceMs);
          const exit = await exited;
          clearTimeout(timer);
          return exit;
        }
        return exited;
      })();
      return stopping;
    },
  };
}
