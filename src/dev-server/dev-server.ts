import { spawn } from "node:child_process";
import type { ChildProcessByStdio } from "node:child_process";
import { accessSync, constants, createWriteStream } from "node:fs";
import type { Readable } from "node:stream";
import { setTimeout as sleep } from "node:timers/promises";
import { DevServerError } from "./dev-server-error.ts";
import { ensureSearchAttributes } from "./ensure-search-attributes.ts";
import { freePort } from "./free-port.ts";
import { tiedToParent } from "./parent-death-signal.ts";
import { portHolder, portIsFree } from "./port-holder.ts";
import { removeServerRecord, stopServerLeftBehind, writeServerRecord } from "./server-record.ts";
import type { SearchAttributeType } from "./search-attributes.ts";
import { lazyClient } from "../temporal-connection.ts";

export interface DevServerOptions {
  cliPath: string;
  /** SQLite file that keeps history across restarts; omitted, the server runs in memory. */
  dbFile?: string;
  /** Frontend gRPC port on 127.0.0.1; 0 or omitted picks a free one. */
  port?: number;
  /** Web UI port; 0 or omitted picks a free one; false runs headless. */
  uiPort?: number | false;
  namespace?: string;
  searchAttributes: Readonly<Record<string, SearchAttributeType>>;
  /** Appends the server's stdout and stderr here. */
  logFile?: string;
  /** `--dynamic-config-value KEY=JSON` pairs, over `defaultDynamicConfig`. */
  dynamicConfig?: Readonly<Record<string, unknown>>;
  /** How long to wait for the server to answer; default 60 s. */
  readyTimeoutMs?: number;
  /** Where to look for `setpriv` (its PATH), which ties the server's life to ours; default process.env. */
  env?: Readonly<Record<string, string | undefined>>;
}

export interface DevServer {
  /** `127.0.0.1:port`, ready for `connectClient({ address })`. */
  address: string;
  uiUrl?: string;
  namespace: string;
  pid: number;
  /** Settles when the server process ends, for whatever reason. */
  exited: Promise<DevServerExit>;
  /** SIGTERM, then SIGKILL after 10 s; safe to call more than once. */
  stop(): Promise<void>;
}

export interface DevServerExit {
  code: number | null;
  signal: NodeJS.Signals | null;
}

const host = "127.0.0.1";
const maxPortAttempts = 3;
const stopGraceMs = 10_000;
// What the CLI prints when a port it was given is already bound.
const portTaken = /can't (set|use default) [\w ]*port|address already in use/i;

/**
 * Starts `temporal server start-dev` and resolves once the namespace answers over gRPC. The
 * server ends with this process, even on `kill -9` where the OS allows (Linux with setpriv); where
 * it does not, a server left behind on the same SQLite file is stopped before the new one starts.
 */
export async function startDevServer(opts: DevServerOptions): Promise<DevServer> {
  if (opts.dbFile !== undefined) await stopServerLeftBehind(opts.dbFile);
  const pickedPorts = !opts.port || opts.uiPort === undefined || opts.uiPort === 0;
  for (let attempt = 1; ; attempt++) {
    try {
      return await startOnce(opts);
    } catch (error) {
      // A port we picked can be taken by someone else before the server binds it.
      const portRace = error instanceof DevServerError && portTaken.test(error.message);
      if (!pickedPorts || !portRace || attempt >= maxPortAttempts) throw error;
    }
  }
}

async function startOnce(opts: DevServerOptions): Promise<DevServer> {
  const namespace = opts.namespace ?? "default";
  const port = opts.port || (await freePort(host));
  const uiPort = opts.uiPort === false ? undefined : opts.uiPort || (await freePort(host));
  const address = `${host}:${port}`;
  const args = buildArgs({ ...opts, namespace, port, uiPort });
  for (const [flag, fixed] of [
    ["--port", opts.port],
    ["--ui-port", opts.uiPort],
  ] as const) {
    if (typeof fixed === "number" && fixed !== 0) await checkPortFree(flag, fixed);
  }

  // Checked here: through setpriv a missing CLI would only show as setpriv's exit status 127.
  if (opts.cliPath.includes("/")) {
    try {
      accessSync(opts.cliPath, constants.X_OK);
    } catch (error) {
      throw new DevServerError(
        `Could not run ${opts.cliPath}: ${error instanceof Error ? error.message : String(error)}`,
        { cause: error },
      );
    }
  }
  const launch = tiedToParent(opts.cliPath, args, opts.env ?? process.env);
  const child = spawn(launch.command, launch.args, { stdio: ["ignore", "pipe", "pipe"] });
  const { dbFile } = opts;
  if (dbFile !== undefined && child.pid !== undefined) {
    writeServerRecord({ pid: child.pid, owner: process.pid, port, dbFile });
  }
  const output = captureOutput(child, opts.logFile);
  const closed = new Promise<DevServerExit>((resolve) => {
    child.once("close", (code, signal) => {
      resolve({ code, signal });
    });
  });
  const spawnFailed = new Promise<never>((_, reject) => {
    child.once("error", (error) => {
      reject(
        new DevServerError(`Could not run ${opts.cliPath}: ${error.message}`, { cause: error }),
      );
    });
  });
  const exitedEarly = Promise.race([
    spawnFailed,
    closed.then(({ code, signal }) => {
      throw new DevServerError(
        `temporal server start-dev exited before it was ready (${signal ?? `exit ${code}`}).\n` +
          `command: ${opts.cliPath} ${args.join(" ")}\n${output.tail()}`,
      );
    }),
  ]);
  exitedEarly.catch(() => undefined);
  // A crashed test run must not leave a server behind.
  const killOnExit = (): void => {
    child.kill("SIGKILL");
  };
  process.once("exit", killOnExit);

  let stopping: Promise<void> | undefined;
  const stop = (): Promise<void> => {
    stopping ??= (async () => {
      const running = child.exitCode === null && child.signalCode === null;
      // Without a pid the spawn failed: there is nothing to signal and "close" may never come.
      if (child.pid !== undefined) {
        const timer = running ? setTimeout(() => child.kill("SIGKILL"), stopGraceMs) : undefined;
        if (running) child.kill("SIGTERM");
        await closed;
        clearTimeout(timer);
        if (dbFile !== undefined) removeServerRecord(dbFile, child.pid);
      }
      process.removeListener("exit", killOnExit);
      await output.close();
    })();
    return stopping;
  };

  // Stops the readiness loop when the process exits first.
  const giveUp = new AbortController();
  try {
    await Promise.race([
      exitedEarly,
      waitUntilReady({
        address,
        namespace,
        timeoutMs: opts.readyTimeoutMs ?? 60_000,
        searchAttributes: opts.searchAttributes,
        signal: giveUp.signal,
      }),
    ]);
  } catch (error) {
    giveUp.abort();
    await stop();
    if (error instanceof DevServerError) throw error;
    throw new DevServerError(
      `temporal server start-dev did not become ready at ${address}: ${String(error)}\n${output.tail()}`,
      { cause: error },
    );
  }
  if (child.pid === undefined) throw new DevServerError("The dev server process has no pid.");
  return {
    address,
    namespace,
    pid: child.pid,
    exited: closed,
    stop,
    ...(uiPort === undefined ? {} : { uiUrl: `http://${host}:${uiPort}` }),
  };
}

/** A fixed port someone else holds: say who, instead of the CLI's bind error after the spawn. */
async function checkPortFree(flag: string, port: number): Promise<void> {
  if (await portIsFree(host, port)) return;
  const holder = portHolder(port);
  throw new DevServerError(
    `port ${port} on ${host} (${flag}) is in use by ${holder ?? "another program"}: stop it, or choose another ${flag} (0 picks a free one)`,
  );
}

/**
 * Server settings the sessions want: eager activity execution hands a model or tool activity
 * straight back to the worker that scheduled it, in the reply to its workflow task, instead of
 * through the task queue. Measured here: median turn (4 model calls, 3 tools) 750 ms → 330-400 ms.
 */
export const defaultDynamicConfig: Readonly<Record<string, unknown>> = {
  "system.enableActivityEagerExecution": true,
};

function buildArgs(o: {
  dbFile?: string;
  namespace: string;
  port: number;
  uiPort: number | undefined;
  searchAttributes: Readonly<Record<string, SearchAttributeType>>;
  dynamicConfig?: Readonly<Record<string, unknown>>;
}): string[] {
  const args = ["server", "start-dev", "--ip", host, "--port", String(o.port)];
  args.push(...(o.uiPort === undefined ? ["--headless"] : ["--ui-port", String(o.uiPort)]));
  if (o.dbFile !== undefined) args.push("--db-filename", o.dbFile);
  // "default" always exists; naming it again would only repeat it.
  if (o.namespace !== "default") args.push("--namespace", o.namespace);
  for (const [name, type] of Object.entries(o.searchAttributes)) {
    args.push("--search-attribute", `${name}=${type}`);
  }
  for (const [key, value] of Object.entries({ ...defaultDynamicConfig, ...o.dynamicConfig })) {
    args.push("--dynamic-config-value", `${key}=${JSON.stringify(value)}`);
  }
  args.push("--log-level", "warn");
  return args;
}

async function waitUntilReady(o: {
  address: string;
  namespace: string;
  timeoutMs: number;
  searchAttributes: Readonly<Record<string, SearchAttributeType>>;
  signal: AbortSignal;
}): Promise<void> {
  const { address, namespace, timeoutMs, searchAttributes, signal } = o;
  const deadline = Date.now() + timeoutMs;
  let lastError: unknown;
  while (Date.now() < deadline && !signal.aborted) {
    const connection = lazyClient({ address, connectTimeout: 500 });
    const closeEarly = (): void => void connection.close();
    signal.addEventListener("abort", closeEarly, { once: true });
    try {
      await connection.ensureConnected();
      await connection.withDeadline(Math.min(deadline, Date.now() + 5_000), () =>
        connection.workflowService.describeNamespace({ namespace }),
      );
      await connection.withDeadline(deadline, () =>
        ensureSearchAttributes(connection, namespace, searchAttributes),
      );
      return;
    } catch (error) {
      if (error instanceof DevServerError) throw error;
      lastError = error;
    } finally {
      signal.removeEventListener("abort", closeEarly);
      await connection.close();
    }
    await sleep(250, undefined, { signal }).catch(() => undefined);
  }
  throw new Error(`no answer within ${timeoutMs} ms (last error: ${String(lastError)})`);
}

function captureOutput(
  child: ChildProcessByStdio<null, Readable, Readable>,
  logFile: string | undefined,
): { tail: () => string; close: () => Promise<void> } {
  const log = logFile === undefined ? undefined : createWriteStream(logFile, { flags: "a" });
  let tail = "";
  const onData = (chunk: Buffer): void => {
    tail = (tail + chunk.toString("utf8")).slice(-8_000);
    log?.write(chunk);
  };
  child.stdout.on("data", onData);
  child.stderr.on("data", onData);
  return {
    tail: () => (tail.trim() === "" ? "(the server printed nothing)" : `server output:\n${tail}`),
    close: () =>
      new Promise((resolve) => {
        if (log === undefined) resolve();
        else log.end(resolve);
      }),
  };
}
