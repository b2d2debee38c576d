import { NativeConnection } from "@temporalio/worker";
import { z } from "zod";
import { createModelProvider } from "./llm/model-provider.ts";
import { providerConfigFromEnv } from "./llm/provider-config.ts";
import { createSearchProvider, searchConfigFromEnv } from "./search/index.ts";
import { DEFAULT_TASK_QUEUE } from "./session/constants.ts";
import { temporalConnectSettings } from "./temporal-connection.ts";
import { createSessionWorker } from "./worker/session-worker.ts";

const help = `Usage: npm run worker

Runs an agentdock-temporal worker: the agentSession workflow, the model activities and the tool
activities, on one task queue, until Ctrl-C (graceful: running activities get 10 s to finish).

Environment:
  TEMPORAL_ADDRESS, TEMPORAL_NAMESPACE, TEMPORAL_API_KEY, TEMPORAL_TLS_*, TEMPORAL_PROFILE
                          Temporal's environment configuration (default 127.0.0.1:7233, "default")
  AGENTDOCK_TASK_QUEUE    task queue (default "${DEFAULT_TASK_QUEUE}")
  OPENAI_API_KEY, OPENAI_BASE_URL, ANTHROPIC_API_KEY, ANTHROPIC_BASE_URL,
  OPENAI_COMPATIBLE_BASE_URL, OPENAI_COMPATIBLE_API_KEY
                          model providers (the scripted model needs none)
  SEARCH_PROVIDER=searxng, SEARXNG_URL
                          the search tool's provider (without one, search fails with a clear error)
`;

const workerEnvSchema = z.object({
  AGENTDOCK_TASK_QUEUE: z.string().min(1).default(DEFAULT_TASK_QUEUE),
});

async function main(): Promise<void> {
  if (process.argv.includes("--help") || process.argv.includes("-h")) {
    console.log(help);
    return;
  }
  const env = process.env;
  const { AGENTDOCK_TASK_QUEUE: taskQueue } = workerEnvSchema.parse(env);
  const temporal = temporalConnectSettings(env);
  const searchProvider = createSearchProvider(searchConfigFromEnv(env));
  const connection = await NativeConnection.connect(temporal.connectionOptions);
  const worker = await createSessionWorker({
    connection,
    namespace: temporal.namespace,
    taskQueue,
    modelProvider: createModelProvider(providerConfigFromEnv(env)),
    ...(searchProvider === undefined ? {} : { searchProvider }),
  });
  const stop = (): void => {
    if (worker.getState() === "RUNNING") {
      console.error("worker: shutting down (running activities get 10 s to finish)…");
      worker.shutdown();
    }
  };
  process.once("SIGINT", stop);
  process.once("SIGTERM", stop);
  console.error(
    `worker: polling task queue "${taskQueue}" on ${temporal.address} (namespace ${temporal.namespace})`,
  );
  await worker.run();
  await connection.close();
  console.error("worker: stopped");
}

main().catch((error: unknown) => {
  console.error(`worker: ${error instanceof Error ? error.message : String(error)}`);
  process.exit(1);
});
