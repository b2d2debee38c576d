import type {
  JSONObject,
  LanguageModelV4CallOptions,
  LanguageModelV4FunctionTool,
  LanguageModelV4ProviderTool,
} from "@ai-sdk/provider";
import { extractReasoningMiddleware, type LanguageModelMiddleware } from "ai";
import { ModelIdError } from "./model-id-error.ts";
import { encodeModelId, type ModelProvider, type ModelRef } from "./model-id.ts";
import { providerOptionsSchemas } from "./provider-options.ts";

/** The key each provider package reads its call options under. */
const providerOptionsKey: Record<ModelProvider, string> = {
  scripted: "scripted",
  openai: "openai",
  anthropic: "anthropic",
  "openai-compatible": "openaiCompatible",
  gemini: "google",
  groq: "groq",
  deepseek: "deepseek",
  cerebras: "cerebras",
};

/**
 * Template settings that are ours to apply rather than the provider's to read: they become
 * middleware, and never reach the provider's options.
 */
const appliedHere = new Set(["extractReasoning", "useSearchGrounding"]);
/** Accepted for AgentDock templates, with no effect (the loader warns about each). */
const acceptedOnly: Partial<Record<ModelProvider, ReadonlySet<string>>> = {
  gemini: new Set(["dynamicRetrievalConfig"]),
  deepseek: new Set(["safetySettings"]),
};

const googleSearchTool: LanguageModelV4ProviderTool = {
  type: "provider",
  id: "google.google_search",
  name: "google_search",
  args: {},
};

function isFunctionTool(
  tool: NonNullable<LanguageModelV4CallOptions["tools"]>[number],
): tool is LanguageModelV4FunctionTool {
  return tool.type === "function";
}

/**
 * The middleware that applies a model id's provider options on every call: the provider's own
 * options under its key, `extractReasoning` as the AI SDK's `<think>` extraction, and Gemini's
 * `useSearchGrounding` as the Google Search tool on calls that offer no function tools (Gemini
 * models before 3 cannot combine the two, and the AI SDK would drop the agent's tools to add it).
 * Options that break the provider's schema throw `ModelIdError`: the id comes from a workflow
 * input, which the worker checks again rather than trusting the loader.
 */
export function providerOptionsMiddleware(ref: ModelRef): LanguageModelMiddleware[] {
  const options = ref.providerOptions;
  if (options === undefined || Object.keys(options).length === 0) return [];
  const parsed = providerOptionsSchemas[ref.provider].safeParse(options);
  if (!parsed.success) {
    const problems = parsed.error.issues
      .map(
        (issue) => `${["providerOptions", ...issue.path.map(String)].join(".")}: ${issue.message}`,
      )
      .join("; ");
    throw new ModelIdError(
      encodeModelId({ ...ref, providerOptions: undefined }),
      `has provider options that ${ref.provider} does not take (${problems})`,
      "llm.providerOptions",
    );
  }
  // Decoded from the id's JSON and checked by the schema: plain JSON values.
  const settings: JSONObject = parsed.data;
  const ignored = acceptedOnly[ref.provider] ?? new Set<string>();
  const forProvider = Object.fromEntries(
    Object.entries(settings).filter(([key]) => !appliedHere.has(key) && !ignored.has(key)),
  );
  const middleware: LanguageModelMiddleware[] = [];
  if (settings.extractReasoning === true) {
    middleware.push(extractReasoningMiddleware({ tagName: "think" }));
  }
  const grounding = settings.useSearchGrounding === true;
  if (Object.keys(forProvider).length > 0 || grounding) {
    const key = providerOptionsKey[ref.provider];
    middleware.push({
      specificationVersion: "v4",
      transformParams: ({ params }) => {
        const own = params.providerOptions?.[key] ?? {};
        const tools = params.tools ?? [];
        const ground = grounding && !tools.some(isFunctionTool);
        return Promise.resolve({
          ...params,
          ...(ground ? { tools: [...tools, googleSearchTool] } : {}),
          providerOptions: {
            ...params.providerOptions,
            [key]: { ...forProvider, ...own },
          },
        });
      },
    });
  }
  return middleware;
}
