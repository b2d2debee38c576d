import { TemporalProvider } from "@temporalio/ai-sdk/workflow";
import { isCancellation } from "@temporalio/workflow";
import { MODEL_ACTIVITY_MAX_ATTEMPTS, MODEL_ACTIVITY_TIMEOUT } from "../src/session/constants.ts";
import type { SessionMessage } from "../src/session/session-types.ts";
import { answerText, boundedSummary, summaryCallOptions } from "./history-window.ts";
import { describeFailure } from "./run-turn.ts";

/**
 * Asks the session's model to fold the turns leaving the window into the running summary (one
 * model activity, "history summary" in the Web UI). A failure is returned, not thrown: the
 * caller keeps the messages and tries again after a later turn, so nothing is lost.
 */
export async function summarizeHistory(
  modelId: string,
  previous: string | undefined,
  leaving: readonly SessionMessage[],
): Promise<{ summary: string } | { error: string }> {
  const model = new TemporalProvider({
    languageModel: {
      startToCloseTimeout: MODEL_ACTIVITY_TIMEOUT,
      retry: { maximumAttempts: MODEL_ACTIVITY_MAX_ATTEMPTS, initialInterval: "1 second" },
      summary: "history summary",
    },
  }).languageModel(modelId);
  try {
    // One call, no tools: the model directly, as `generateText` would call it (history-window.ts).
    const result = await model.doGenerate(summaryCallOptions(previous, leaving));
    const summary = boundedSummary(answerText(result.content));
    return summary === "" ? { error: "the model wrote an empty summary" } : { summary };
  } catch (error) {
    if (isCancellation(error)) throw error;
    return { error: describeFailure(error) };
  }
}
