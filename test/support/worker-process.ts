import { spawn, type ChildProcess } from "node:child_process";
import { once } from "node:events";
import { tmpdir } from "node:os";
import { delimiter } from "node:path";
import { fileURLToPath } from "node:url";

/** A worker started the way a user starts one (`node src/worker.ts`), as a separate process. */
export interface WorkerProcess {
  child: ChildProcess;
  output: () => string;
  /** Resolves once the worker polls its task queue. */
  ready: Promise<void>;
  kill(signal?: NodeJS.Signals): Promise<void>;
}

/** The environment of a worker process on the test server: its task queue and SearXNG search. */
export function workerEnv(
  server: { address: string; namespace: string },
  taskQueue: string,
  searxngUrl: string,
): Record<string, string> {
  return {
    TEMPORAL_ADDRESS: server.address,
    TEMPORAL_NAMESPACE: server.namespace,
    AGENTDOCK_TASK_QUEUE: taskQueue,
    SEARCH_PROVIDER: "searxng",
    SEARXNG_URL: searxngUrl,
    // Scripts the tests play: the fixtures, and the temp folder the fault tests write to.
    AGENTDOCK_SCRIPT_DIRS: [
      fileURLToPath(new URL("../fixtures/scripts", import.meta.url)),
      tmpdir(),
    ].join(delimiter),
  };
}

export function spawnWorker(env: Record<string, string>): WorkerProcess {
  const child = spawn(process.execPath, ["src/worker.ts"], {
    env: { ...process.env, ...env },
    stdio: ["ignore", "pipe", "pipe"],
  });
  let output = "";
  const ready = new Promise<void>((resolve, reject) => {
    const onData = (chunk: Buffer): void => {
      output += chunk.toString();
      if (output.includes("worker: polling task queue")) resolve();
    };
    child.stdout.on("data", onData);
    child.stderr.on("data", onData);
    child.once("exit", (code) => {
      reject(new Error(`worker exited with ${code}:\n${output}`));
    });
  });
  ready.catch(() => undefined);
  return {
    child,
    output: () => output,
    ready,
    kill: async (signal = "SIGKILL") => {
      if (child.exitCode !== null || child.signalCode !== null) return;
      child.kill(signal);
      await once(child, "exit");
    },
  };
}
