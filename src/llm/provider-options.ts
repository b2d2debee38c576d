import { z } from "zod";
import type { ModelProvider } from "./model-id.ts";

// What a template may set in `llm.providerOptions` (AgentDock: the other keys of
// `nodeConfigurations["llm.<provider>"]`), one strict schema per provider, with AgentDock's names.
// Pure on purpose: the loader checks templates with it and the worker checks every model id
// again, since a session's template arrives in a workflow input it does not trust.

const harmCategory = z.enum([
  "HARM_CATEGORY_UNSPECIFIED",
  "HARM_CATEGORY_HATE_SPEECH",
  "HARM_CATEGORY_DANGEROUS_CONTENT",
  "HARM_CATEGORY_HARASSMENT",
  "HARM_CATEGORY_SEXUALLY_EXPLICIT",
  "HARM_CATEGORY_CIVIC_INTEGRITY",
]);
const harmThreshold = z.enum([
  "HARM_BLOCK_THRESHOLD_UNSPECIFIED",
  "BLOCK_LOW_AND_ABOVE",
  "BLOCK_MEDIUM_AND_ABOVE",
  "BLOCK_ONLY_HIGH",
  "BLOCK_NONE",
  "OFF",
]);
const safetySettings = z
  .array(z.strictObject({ category: harmCategory, threshold: harmThreshold }))
  .max(20)
  .describe("Gemini's safety filters: a threshold per harm category.");

const extractReasoning = z
  .boolean()
  .describe("Split the model's <think>…</think> text off as reasoning (DeepSeek-R1 style models).");

export const geminiOptionsSchema = z
  .strictObject({
    useSearchGrounding: z
      .boolean()
      .describe(
        "Ground answers in Google Search, on model calls that offer no tools (Gemini models before 3 cannot mix the two).",
      ),
    dynamicRetrievalConfig: z
      .strictObject({
        mode: z.enum(["MODE_DYNAMIC", "MODE_UNSPECIFIED"]),
        dynamicThreshold: z.number().min(0).max(1).optional(),
      })
      .describe("Accepted for AgentDock templates; Gemini's search tool decides when to search."),
    safetySettings,
    structuredOutputs: z.boolean(),
    thinkingConfig: z.strictObject({
      thinkingBudget: z.int().min(0).max(100_000).optional(),
      includeThoughts: z.boolean().optional(),
      thinkingLevel: z.enum(["minimal", "low", "medium", "high"]).optional(),
    }),
    cachedContent: z.string().min(1).max(500),
  })
  .partial();

export const groqOptionsSchema = z
  .strictObject({
    extractReasoning,
    reasoningFormat: z.enum(["parsed", "raw", "hidden"]),
    reasoningEffort: z.enum(["none", "default", "low", "medium", "high"]),
    parallelToolCalls: z.boolean(),
    serviceTier: z.enum(["on_demand", "performance", "flex", "auto"]),
  })
  .partial();

export const deepseekOptionsSchema = z
  .strictObject({
    extractReasoning,
    /** In AgentDock's DeepSeek settings; DeepSeek's API has no safety filters to set. */
    safetySettings: safetySettings.describe("Accepted for AgentDock templates; DeepSeek has none."),
    thinking: z.strictObject({ type: z.enum(["enabled", "disabled"]) }),
    reasoningEffort: z.enum(["low", "high", "max"]),
  })
  .partial();

export const cerebrasOptionsSchema = z
  .strictObject({
    extractReasoning,
    reasoningEffort: z.enum(["none", "low", "medium", "high"]),
    reasoningFormat: z.enum(["none", "parsed", "text_parsed", "raw", "hidden"]),
    parallelToolCalls: z.boolean(),
    serviceTier: z.enum(["default", "auto", "flex", "priority"]),
  })
  .partial();

export const openaiOptionsSchema = z
  .strictObject({
    reasoningEffort: z.enum(["none", "minimal", "low", "medium", "high", "xhigh"]),
    reasoningSummary: z.enum(["auto", "concise", "detailed"]),
    parallelToolCalls: z.boolean(),
    serviceTier: z.enum(["auto", "flex", "priority", "default"]),
  })
  .partial();

export const anthropicOptionsSchema = z
  .strictObject({
    thinking: z.discriminatedUnion("type", [
      z.strictObject({ type: z.literal("enabled"), budgetTokens: z.int().min(1024).max(200_000) }),
      z.strictObject({ type: z.literal("disabled") }),
    ]),
    sendReasoning: z.boolean(),
  })
  .partial();

export const openaiCompatibleOptionsSchema = z
  .strictObject({
    extractReasoning,
    reasoningEffort: z.string().min(1).max(20),
  })
  .partial();

/** The schema of `llm.providerOptions` for each provider; `scripted` takes none. */
export const providerOptionsSchemas = {
  scripted: z.strictObject({}),
  openai: openaiOptionsSchema,
  anthropic: anthropicOptionsSchema,
  "openai-compatible": openaiCompatibleOptionsSchema,
  gemini: geminiOptionsSchema,
  groq: groqOptionsSchema,
  deepseek: deepseekOptionsSchema,
  cerebras: cerebrasOptionsSchema,
} as const satisfies Record<ModelProvider, z.ZodType>;

export type ProviderOptionsFor<P extends ModelProvider> = z.output<
  (typeof providerOptionsSchemas)[P]
>;

/** Settings as they travel in a model id: a plain JSON object. */
export type ProviderOptions = Readonly<Record<string, unknown>>;

/** The settings a provider takes (none for an unknown provider: the loader reports that). */
export function providerOptionKeys(provider: string): string[] {
  const schemas: Partial<Record<string, { shape: object }>> = providerOptionsSchemas;
  const schema = schemas[provider];
  return schema === undefined ? [] : Object.keys(schema.shape);
}
