import { z } from "zod";

/**
 * The query a model activity asks its own workflow for the call options (prompt, tool schemas,
 * settings) of the call it runs. The options are workflow state, rebuilt deterministically from
 * history on every replay, so they need not be recorded again in every activity input: on a long
 * session the re-sent prompt was most of each turn's history.
 */
export const MODEL_CALL_OPTIONS_QUERY = "modelCallOptions";

/**
 * A model activity's input in sessions that ask for their options (patch
 * `model-options-by-query`): the call's key (its stream topic, unique per call) instead of the
 * options, and the names of the tools it offers so a recorded history still says what the model
 * was offered at each step.
 */
export const modelCallByQuerySchema = z.object({
  modelId: z.string().min(1),
  streamingTopic: z.string().min(1),
  /** The key `MODEL_CALL_OPTIONS_QUERY` answers for; the workflow holds it while the call runs. */
  optionsQueryKey: z.string().min(1),
  offeredTools: z.array(z.string()),
});
export type ModelCallByQuery = z.infer<typeof modelCallByQuerySchema>;
