import type { ReportedTokenUsage } from "../orchestration/index.ts";

// What a model activity's recorded input and result say about the call: the tools it was
// offered, the usage the AI SDK counted, and whether it opened a turn.

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

/**
 * The offered tools of a model call: named in the activity input where the activity asked its
 * workflow for the options (patch `model-options-by-query`), else read from the options it
 * received.
 */
export function offeredTools(input: unknown): string[] {
  const named = isRecord(input) ? input["offeredTools"] : undefined;
  if (Array.isArray(named)) return named.filter((name) => typeof name === "string");
  const tools = isRecord(input) && isRecord(input["options"]) ? input["options"]["tools"] : [];
  if (!Array.isArray(tools)) return [];
  return tools.flatMap((entry) =>
    isRecord(entry) && typeof entry["name"] === "string" ? [entry["name"]] : [],
  );
}

/** A model call's usage as the AI SDK hands it to `onStepEnd` (totals of the provider's counts). */
export function usageOf(result: unknown): ReportedTokenUsage | undefined {
  const usage = isRecord(result) ? result["usage"] : undefined;
  if (!isRecord(usage)) return undefined;
  const total = (count: unknown): number | undefined => {
    const value = isRecord(count) ? count["total"] : count;
    return typeof value === "number" ? value : undefined;
  };
  return { inputTokens: total(usage["inputTokens"]), outputTokens: total(usage["outputTokens"]) };
}

/**
 * Whether a model call is the first of its turn. The activity's summary says it ("model step 1 ·
 * …"); histories without summaries tell it by the prompt, which ends with the user's message only
 * on a turn's first call (later calls end with tool results or assistant text).
 */
export function startsTurn(summary: unknown, input: unknown): boolean {
  if (typeof summary === "string") return /^model step 1\b/.test(summary);
  const prompt = isRecord(input) && isRecord(input["options"]) ? input["options"]["prompt"] : [];
  const last: unknown = Array.isArray(prompt) ? prompt.at(-1) : undefined;
  return isRecord(last) && last["role"] === "user";
}
