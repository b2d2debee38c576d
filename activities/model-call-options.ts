import type { LanguageModelV4CallOptions } from "@ai-sdk/provider";
import { Context } from "@temporalio/activity";
import { ApplicationFailure } from "@temporalio/common";
import type { InvokeModelStreamingArgs } from "@temporalio/ai-sdk";
import { z } from "zod";
import {
  MODEL_CALL_OPTIONS_QUERY,
  modelCallByQuerySchema,
  type ModelCallByQuery,
} from "../src/session/model-call-input.ts";
import { formatIssues } from "../src/session/session-types.ts";

/** What the model activity receives: the options themselves (older sessions) or their key. */
export type ModelCallArgs = InvokeModelStreamingArgs | ModelCallByQuery;

/** Enough of the answer to know it is call options; the provider checks the rest. */
const callOptionsSchema = z.looseObject({ prompt: z.array(z.unknown()) });

/** The input does not name a model call the way either form does: retrying cannot fix it. */
function malformed(detail: string): ApplicationFailure {
  return ApplicationFailure.create({
    message: `model activity input: ${detail}`,
    type: "ModelCallInputError",
    nonRetryable: true,
  });
}

/** Where the options a workflow offered to this worker wait (src/worker/model-call-store.ts). */
export interface OfferedModelCalls {
  take(workflowId: string, runId: string, topic: string): unknown;
}

/**
 * The options of the call this activity runs: from its input when the workflow sent them, else
 * those its workflow offered to this worker, else asked of its own workflow run by query. A query that finds no such call (the call was stopped
 * while this attempt waited) fails for good; one that cannot reach the server is retried.
 */
export async function modelCallOptions(
  args: unknown,
  offered?: OfferedModelCalls,
): Promise<{
  modelId: string;
  streamingTopic: string;
  options: LanguageModelV4CallOptions;
  /** The workflow publishes the live parts of a call that ends before the first send. */
  deferLiveParts: boolean;
}> {
  if (typeof args === "object" && args !== null && "options" in args) {
    const { modelId, options, streamingTopic } = args as InvokeModelStreamingArgs;
    if (typeof modelId !== "string" || typeof streamingTopic !== "string") {
      throw malformed("modelId and streamingTopic must be strings");
    }
    return { modelId, streamingTopic, options, deferLiveParts: false };
  }
  const parsed = modelCallByQuerySchema.safeParse(args);
  if (!parsed.success) throw malformed(formatIssues(parsed.error));
  const { modelId, streamingTopic, deferLiveParts = false } = parsed.data;
  const { client, info } = Context.current();
  const execution = info.workflowExecution;
  if (execution === undefined) throw malformed("the activity was not scheduled by a workflow");
  const { workflowId, runId } = execution;
  const answer: unknown =
    offered?.take(workflowId, runId, streamingTopic) ??
    (await client.workflow
      .getHandle(workflowId, runId)
      .query(MODEL_CALL_OPTIONS_QUERY, streamingTopic));
  if (answer === null || answer === undefined) {
    throw ApplicationFailure.create({
      message: `model call ${streamingTopic} is no longer running in ${workflowId}`,
      type: "ModelCallGone",
      nonRetryable: true,
    });
  }
  const options = callOptionsSchema.safeParse(answer);
  if (!options.success) throw malformed(`the workflow's call options have no prompt`);
  return {
    modelId,
    streamingTopic,
    options: options.data as unknown as LanguageModelV4CallOptions,
    deferLiveParts,
  };
}
