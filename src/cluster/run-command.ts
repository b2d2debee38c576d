import { spawn } from "node:child_process";

export interface CommandOutcome {
  code: number;
  /** The last few thousand characters of stdout and stderr, for error messages. */
  tail: string;
}

/** Runs a command to its end, passing each output line to `onLine`; never rejects on exit status. */
export function runCommand(
  command: string,
  args: readonly string[],
  options: {
    env: Readonly<Record<string, string | undefined>>;
    cwd?: string;
    onLine?: (line: string) => void;
  },
): Promise<CommandOutcome> {
  return new Promise((resolve, reject) => {
    const child = spawn(command, args, {
      env: options.env,
      ...(options.cwd === undefined ? {} : { cwd: options.cwd }),
      stdio: ["ignore", "pipe", "pipe"],
    });
    let tail = "";
    const onData = (chunk: Buffer): void => {
      const text = chunk.toString("utf8");
      tail = (tail + text).slice(-4_000);
      for (const line of text.split("\n")) if (line.trim() !== "") options.onLine?.(line);
    };
    child.stdout.on("data", onData);
    child.stderr.on("data", onData);
    child.on("error", reject);
    child.on("close", (code, signal) => {
      resolve({ code: code ?? (signal === null ? 1 : 128), tail });
    });
  });
}
