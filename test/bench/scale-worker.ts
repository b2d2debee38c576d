import { readFileSync } from "node:fs";
import { NativeConnection } from "@temporalio/worker";
import { z } from "zod";
import { createModelProvider } from "../../src/llm/model-provider.ts";
import { testModelAccess } from "../support/test-model-access.ts";
import { createSessionWorker } from "../../src/worker/session-worker.ts";
import { tuningPlugin, workerTuningSchema } from "./support/worker-tuning.ts";

// The scale benchmark's worker, as its own process so its RSS and CPU can be read from /proc:
// the project's session worker (scripted model) on a prebuilt bundle, with the given tuning.
// Argument: ScaleWorkerArgs as JSON. Runs until SIGTERM.
const argsSchema = z.object({
  address: z.string(),
  namespace: z.string(),
  taskQueue: z.string(),
  bundlePath: z.string(),
  tuning: workerTuningSchema,
});
export type ScaleWorkerArgs = z.infer<typeof argsSchema>;

/** What the worker runs with, defaults included; printed on the ready line. */
export interface EffectiveWorkerOptions {
  maxCachedWorkflows: number;
  workflowThreadPoolSize: number;
  workflowTaskSlots: number | string;
}

const args = argsSchema.parse(JSON.parse(process.argv[2] ?? "{}"));
const connection = await NativeConnection.connect({
  address: args.address,
  plugins: [tuningPlugin(args.tuning)],
});
const worker = await createSessionWorker({
  connection,
  namespace: args.namespace,
  taskQueue: args.taskQueue,
  modelProvider: createModelProvider({ scripted: {} }, testModelAccess),
  workflowBundle: { code: readFileSync(args.bundlePath, "utf8") },
});
process.once("SIGTERM", () => {
  worker.shutdown();
});
const running = worker.run();
const { maxCachedWorkflows, workflowThreadPoolSize, tuner } = worker.options;
const slots = tuner.workflowTaskSlotSupplier;
const effective: EffectiveWorkerOptions = {
  maxCachedWorkflows,
  workflowThreadPoolSize,
  workflowTaskSlots: slots.type === "fixed-size" ? slots.numSlots : slots.type,
};
console.log(`bench-worker: ready ${JSON.stringify(effective)}`);
// The sessions the worker holds, from its own cache count (the SDK's status), every second.
const reportCache = setInterval(() => {
  console.log(`bench-worker: cached ${worker.getStatus().numCachedWorkflows}`);
}, 1000);
reportCache.unref();
await running;
await connection.close();
