import { spawn, type ChildProcess } from "node:child_process";
import { once } from "node:events";
import { readdirSync, readFileSync } from "node:fs";

/** A TypeScript entry running on this process's Node (24), its output collected. */
export interface NodeChild {
  process: ChildProcess;
  pid: number;
  output(): string;
}

/** Runs `script` with one JSON argument. */
export function spawnNode(script: string, argument: unknown, nodeFlags: string[] = []): NodeChild {
  const child = spawn(process.execPath, [...nodeFlags, script, JSON.stringify(argument)], {
    stdio: ["ignore", "pipe", "pipe"],
  });
  if (child.pid === undefined) throw new Error(`could not start ${script}`);
  let output = "";
  const collect = (chunk: Buffer): void => {
    output += chunk.toString();
  };
  child.stdout.on("data", collect);
  child.stderr.on("data", collect);
  return { process: child, pid: child.pid, output: () => output };
}

/** Resolves when the child has printed `line`; rejects if it exits first. */
export function waitForLine(child: NodeChild, line: string): Promise<void> {
  return new Promise((resolve, reject) => {
    const onData = (): void => {
      if (!child.output().includes(line)) return;
      child.process.stdout?.off("data", onData);
      child.process.off("exit", onExit);
      resolve();
    };
    const onExit = (code: number | null): void => {
      reject(new Error(`child exited with ${code} before printing "${line}":\n${child.output()}`));
    };
    child.process.stdout?.on("data", onData);
    child.process.once("exit", onExit);
    onData();
  });
}

/** The last line the child printed, once it has exited with 0. */
export async function lastLineOf(child: NodeChild): Promise<string> {
  const exit = child.process;
  const [code] = (exit.exitCode === null ? await once(exit, "exit") : [exit.exitCode]) as [
    number | null,
  ];
  if (code !== 0) throw new Error(`child exited with ${code}:\n${child.output()}`);
  return child.output().trim().split("\n").at(-1) ?? "";
}

/** SIGTERM, then SIGKILL after `graceMs`; resolves once the child is gone. */
export async function stopChild(child: NodeChild, graceMs = 15_000): Promise<void> {
  const running = child.process;
  if (running.exitCode !== null || running.signalCode !== null) return;
  const exited = once(running, "exit");
  running.kill("SIGTERM");
  const timer = setTimeout(() => running.kill("SIGKILL"), graceMs);
  await exited;
  clearTimeout(timer);
}

/** CPU time a process has used so far (user + system), from /proc (Linux; 100 ticks a second). */
export function cpuSeconds(pid: number): number {
  const stat = readFileSync(`/proc/${pid}/stat`, "utf8");
  // Fields after the command name (which may hold spaces): state is field 3, utime 14, stime 15.
  const fields = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
  return (Number(fields[11]) + Number(fields[12])) / 100;
}

/** Pids of this process's children running `command` (e.g. the dev server `temporal`). */
export function childPidsNamed(command: string): number[] {
  return readdirSync("/proc")
    .filter((entry) => /^\d+$/.test(entry))
    .filter((pid) => {
      try {
        const stat = readFileSync(`/proc/${pid}/stat`, "utf8");
        const name = stat.slice(stat.indexOf("(") + 1, stat.lastIndexOf(")"));
        const ppid = stat.slice(stat.lastIndexOf(")") + 2).split(" ")[1];
        return name === command && Number(ppid) === process.pid;
      } catch {
        return false; // the process ended while we looked
      }
    })
    .map(Number);
}

/** A process's resident set now and at its peak (VmHWM), from /proc (Linux). */
export function residentMemory(pid: number): { rssBytes: number; peakRssBytes: number } {
  const status = readFileSync(`/proc/${pid}/status`, "utf8");
  const bytes = (field: string): number => {
    const match = new RegExp(`^${field}:\\s+(\\d+) kB`, "m").exec(status);
    if (match?.[1] === undefined) throw new Error(`no ${field} in /proc/${pid}/status`);
    return Number(match[1]) * 1024;
  };
  return { rssBytes: bytes("VmRSS"), peakRssBytes: bytes("VmHWM") };
}
