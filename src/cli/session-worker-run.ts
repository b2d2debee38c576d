import type { NativeConnection, Worker } from "@temporalio/worker";
import { createSearchProvider, searchConfigFromEnv } from "../search/index.ts";
import { createSessionWorker } from "../worker/session-worker.ts";
import { agentsDirs } from "./agent-dirs.ts";
import type { CliContext } from "./cli-context.ts";
import { writeLine } from "./output.ts";
import { workerModelSetup } from "./worker-model-setup.ts";

/** A session worker with the model providers and search provider the environment configures. */
export async function createConfiguredWorker(
  context: CliContext,
  options: { connection: NativeConnection; namespace: string; taskQueue: string },
): Promise<Worker> {
  const searchProvider = createSearchProvider(searchConfigFromEnv(context.env));
  const { modelProvider, secrets } = workerModelSetup(context.env, agentsDirs(context), (line) => {
    writeLine(context.stderr, `worker: warning: ${line}`);
  });
  return createSessionWorker({
    ...options,
    modelProvider,
    secrets,
    ...(searchProvider === undefined ? {} : { searchProvider }),
  });
}

/**
 * Runs the worker until Ctrl-C or SIGTERM, then shuts it down gracefully (running activities get
 * their grace time). Resolves when it has stopped; rejects if the worker fails.
 */
export async function runUntilInterrupted(
  worker: Worker,
  context: CliContext,
  label: string,
): Promise<void> {
  const stop = (): void => {
    if (worker.getState() !== "RUNNING") return;
    writeLine(context.stderr, `${label}: shutting down (running activities get 10 s to finish)…`);
    worker.shutdown();
  };
  process.on("SIGINT", stop);
  process.on("SIGTERM", stop);
  try {
    await worker.run();
  } finally {
    process.removeListener("SIGINT", stop);
    process.removeListener("SIGTERM", stop);
  }
}
