import { spawn, type ChildProcess, type SpawnOptions } from "node:child_process";
import { once } from "node:events";

/** A CLI process started as a user starts it, with its output collected. */
export interface CliProcess {
  child: ChildProcess;
  output: () => string;
  /** Resolves with the output so far once `pattern` matches it; rejects on exit or timeout. */
  waitFor(pattern: RegExp, timeoutMs?: number): Promise<RegExpExecArray>;
  /** Resolves with the exit code (or the signal's name) within `timeoutMs`, else rejects. */
  exited(timeoutMs?: number): Promise<number | NodeJS.Signals>;
  /** SIGKILL if still running, and waits for the exit: for `after` hooks. */
  kill(): Promise<void>;
}

export function spawnCli(
  command: string,
  args: readonly string[],
  options: SpawnOptions & { env: NodeJS.ProcessEnv },
): CliProcess {
  const child = spawn(command, args, { ...options, stdio: ["ignore", "pipe", "pipe"] });
  let output = "";
  const onData = (chunk: Buffer): void => {
    output += chunk.toString();
  };
  child.stdout.on("data", onData);
  child.stderr.on("data", onData);
  const exit = new Promise<number | NodeJS.Signals>((resolve) => {
    child.once("exit", (code, signal) => {
      resolve(code ?? signal ?? -1);
    });
  });
  const running = (): boolean => child.exitCode === null && child.signalCode === null;
  return {
    child,
    output: () => output,
    waitFor: (pattern, timeoutMs = 60_000) =>
      new Promise((resolve, reject) => {
        const check = (): boolean => {
          const match = pattern.exec(output);
          if (match === null) return false;
          cleanup();
          resolve(match);
          return true;
        };
        const timer = setTimeout(() => {
          cleanup();
          reject(new Error(`no ${String(pattern)} within ${timeoutMs} ms:\n${output}`));
        }, timeoutMs);
        const onExit = (): void => {
          if (check()) return;
          cleanup();
          reject(new Error(`exited before ${String(pattern)}:\n${output}`));
        };
        const onChunk = (): void => {
          check();
        };
        const cleanup = (): void => {
          clearTimeout(timer);
          child.stdout.off("data", onChunk);
          child.stderr.off("data", onChunk);
          child.off("exit", onExit);
        };
        child.stdout.on("data", onChunk);
        child.stderr.on("data", onChunk);
        child.once("exit", onExit);
        check();
      }),
    exited: async (timeoutMs = 30_000) => {
      let timer: NodeJS.Timeout | undefined;
      const timeout = new Promise<never>((_, reject) => {
        timer = setTimeout(() => {
          reject(new Error(`still running after ${timeoutMs} ms:\n${output}`));
        }, timeoutMs);
      });
      try {
        return await Promise.race([exit, timeout]);
      } finally {
        clearTimeout(timer);
      }
    },
    kill: async () => {
      if (!running()) return;
      child.kill("SIGKILL");
      await once(child, "exit").catch(() => undefined);
    },
  };
}

/** `serve --port 0` on the test server; resolves with the API's URL once it listens. */
export async function startServe(
  env: NodeJS.ProcessEnv,
  extraArgs: readonly string[] = [],
  command: { file: string; args: readonly string[] } = {
    file: process.execPath,
    args: ["src/cli.ts"],
  },
): Promise<{ process: CliProcess; url: string }> {
  const serve = spawnCli(command.file, [...command.args, "serve", "--port", "0", ...extraArgs], {
    env,
  });
  try {
    const match = await serve.waitFor(/HTTP API on (http:\/\/[\d.]+:\d+)/);
    return { process: serve, url: match[1] ?? "" };
  } catch (error) {
    await serve.kill();
    throw error;
  }
}
