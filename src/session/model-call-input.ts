import type { Sinks } from "@temporalio/workflow";
import { z } from "zod";
import { sharedAcrossSessions } from "../orchestration/shared-across-sessions.ts";

/**
 * The query a model activity asks its own workflow for the call options (prompt, tool schemas,
 * settings) of the call it runs. The options are workflow state, rebuilt deterministically from
 * history on every replay, so they need not be recorded again in every activity input: on a long
 * session the re-sent prompt was most of each turn's history.
 */
export const MODEL_CALL_OPTIONS_QUERY = "modelCallOptions";

/**
 * A model activity's input in sessions that ask for their options (patch
 * `model-options-by-query`): no options, and the names of the tools the call offers, so a
 * recorded history still says what the model was offered at each step. The call's stream topic
 * (unique per call) is the key `MODEL_CALL_OPTIONS_QUERY` answers for while the call runs.
 */
export const modelCallByQuerySchema = sharedAcrossSessions(
  "src/session/model-call-input:modelCallByQuerySchema",
  () =>
    z.object({
      modelId: z.string().min(1),
      streamingTopic: z.string().min(1),
      offeredTools: z.array(z.string()),
      /**
       * Patch `model-stream-tail`: the activity publishes live parts only once the call has run a
       * publish interval, and says in its result whether it did; a shorter call's parts are
       * published by the workflow from the result. Each publish is a signal, a history event and a
       * workflow task of its own, and most calls end within one interval.
       */
      deferLiveParts: z.boolean().optional(),
    }),
);
export type ModelCallByQuery = z.infer<typeof modelCallByQuerySchema>;

/**
 * How a workflow hands a model call's options to its own worker as it schedules the call (not
 * recorded anywhere); the activity falls back to the query when it runs elsewhere.
 */
export interface ModelCallSinks extends Sinks {
  modelCalls: {
    offer(streamingTopic: string, options: unknown): void;
  };
}

/**
 * What a model activity whose input set `deferLiveParts` adds to its result: whether it
 * published any live part of its final attempt itself (else the workflow publishes them all).
 */
export interface LivePartsReport {
  livePartsPublished?: boolean;
}
