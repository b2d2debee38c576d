import { z } from "zod";
import { sharedAcrossSessions } from "./shared-across-sessions.ts";
import { approvalRulesSchema } from "./approval-schema.ts";
import { conditionSchema, conditionTypeSchema, toolNameSchema } from "./condition-schema.ts";
import {
  boundedArray,
  boundedString,
  boundedTextOrLines,
  templateLimits as limits,
} from "./template-limits.ts";

/** Turns of conversation each model call re-sends verbatim, unless the template says otherwise. */
export const DEFAULT_RECENT_TURNS = 10;

export const llmProviders = [
  "scripted",
  "openai",
  "anthropic",
  "openai-compatible",
  "gemini",
  "groq",
  "deepseek",
  "cerebras",
] as const;

/** What a message arriving during a turn does (`session.arrivalPolicy`). */
export const arrivalPolicies = ["queue", "steer", "interrupt", "reject"] as const;
// Built once per worker, not per cached session (see shared-across-sessions.ts).
const schemas = sharedAcrossSessions("src/orchestration/template-schema", () => {
  const toolPatternSchema = boundedString(limits.name)
    .min(1, "a tool pattern cannot be empty")
    .regex(/^[A-Za-z0-9_.*-]+$/, "a tool pattern uses letters, digits, '_', '.', '-' and '*' only");

  const description = boundedTextOrLines(limits.description);

  /** A sequence position: one tool, or a non-empty list of alternatives. Normalised to a list. */
  const sequencePositionSchema = z
    .union([
      toolNameSchema,
      boundedArray(toolNameSchema, limits.alternatives, "alternatives").min(
        1,
        "an alternatives list needs at least one tool",
      ),
    ])
    .transform((value) => (typeof value === "string" ? [value] : value));

  const resetTriggerSchema = z.union([
    z.literal("user_message").describe("Reset on every new user message."),
    conditionTypeSchema.describe(
      "Reset when this step's own condition of that type holds on the new event.",
    ),
    conditionSchema.describe("Reset when this condition holds on the new event."),
  ]);

  const stepSchema = z.strictObject({
    name: boundedString(limits.name).trim().min(1, "a step needs a name"),
    description: description.optional(),
    conditions: boundedArray(conditionSchema, limits.conditions, "conditions")
      .optional()
      .describe("All must hold for the step to become active."),
    availableTools: z
      .strictObject({
        allowed: boundedArray(toolPatternSchema, limits.tools, "tool patterns")
          .optional()
          .describe("Absent: every agent tool; empty: none."),
        denied: boundedArray(toolPatternSchema, limits.tools, "tool patterns").optional(),
      })
      .optional(),
    sequence: boundedArray(sequencePositionSchema, limits.sequence, "positions")
      .min(1, "a sequence needs at least one position; omit `sequence` for none")
      .optional()
      .describe("Tools that must run in this order; a position may list alternatives."),
    resetSequenceOn: boundedArray(resetTriggerSchema, limits.resetTriggers, "triggers").optional(),
    onComplete: boundedString(limits.name)
      .min(1)
      .optional()
      .describe('After the sequence completes: "stay" (default), "default", or a step name.'),
    isDefault: z.boolean().optional(),
    forceSequence: z
      .boolean()
      .optional()
      .describe("Make the model call the expected tool while the sequence runs."),
    approve: approvalRulesSchema.optional(),
  });

  const orchestrationSchema = z.strictObject({
    description: description.optional(),
    defaultStep: boundedString(limits.name).min(1).optional(),
    enforcement: z.enum(["strict", "guide"]).default("strict"),
    historyLimit: z.int().min(1).max(10_000).default(50),
    releaseAfterFailures: z
      .int()
      .min(1)
      .max(100)
      .optional()
      .describe(
        "A sequence whose next tool failed this many times in a row is released to the default step (default 2).",
      ),
    steps: boundedArray(stepSchema, limits.steps, "steps").default([]),
    approve: approvalRulesSchema.optional(),
  });

  const llmSchema = z.strictObject({
    provider: z.enum(llmProviders),
    model: boundedString(limits.name).min(
      1,
      'name the model, e.g. "gpt-4o-mini" ("auto" for scripted)',
    ),
    temperature: z.number().min(0).max(2).optional(),
    maxTokens: z.int().min(1).optional(),
    baseURL: z
      .url()
      .optional()
      .describe("For openai-compatible servers (Ollama, vLLM, LM Studio)."),
    providerOptions: z
      .record(z.string(), z.unknown())
      .optional()
      .describe(
        "Settings of this provider (useSearchGrounding, safetySettings, thinkingConfig, extractReasoning…); checked against the provider's own schema when the template loads.",
      ),
  });

  const durationSchema = z
    .string()
    .regex(/^\d+(ms|s|m|h|d)$/, 'write a duration like "90s", "30m", "24h" or "7d"');

  const arrivalPolicySchema = z.enum(arrivalPolicies);

  const agentTemplateSchema = z.strictObject({
    $schema: boundedString(limits.url).optional(),
    id: boundedString(limits.name).regex(
      /^[a-z0-9][a-z0-9-]*$/,
      "an agent id uses lower-case letters, digits and '-' (it names the folder)",
    ),
    name: boundedString(limits.name).min(1),
    description: boundedString(limits.description).default(""),
    personality: boundedTextOrLines(limits.personality).default(""),
    llm: llmSchema.default({ provider: "scripted", model: "auto" }),
    tools: boundedArray(boundedString(limits.name).min(1), limits.tools, "tools").default([]),
    options: z
      .strictObject({
        maxSteps: z.int().min(1).max(100).default(10),
        tokenOptimization: z.record(z.string(), z.unknown()).optional(),
      })
      .default({ maxSteps: 10 }),
    session: z
      .strictObject({
        idleTimeout: durationSchema.default("24h"),
        history: z
          .strictObject({
            /** Turns every model call re-sends verbatim; older ones live on in the summary. */
            recentTurns: z.int().min(1).max(1000).default(DEFAULT_RECENT_TURNS),
            /** Fold the turns that leave the window into a running summary the model writes. */
            summarize: z.boolean().default(true),
          })
          .default({ recentTurns: DEFAULT_RECENT_TURNS, summarize: true }),
        /**
         * What a message that arrives while a turn runs does: waits its turn (`queue`), joins the
         * running turn before its next model call (`steer`), stops the running turn and is
         * answered next (`interrupt`), or is refused as busy (`reject`, HTTP 409). Absent means
         * `queue`, as in every snapshot taken before the setting existed.
         */
        arrivalPolicy: arrivalPolicySchema.optional(),
      })
      .default({
        idleTimeout: "24h",
        history: { recentTurns: DEFAULT_RECENT_TURNS, summarize: true },
      }),
    orchestration: orchestrationSchema.default({
      enforcement: "strict",
      historyLimit: 50,
      steps: [],
    }),
    version: boundedString(limits.name).optional(),
    tags: boundedArray(boundedString(limits.name), limits.listEntries, "tags").optional(),
    priority: z.number().optional(),
    chatSettings: z
      .strictObject({
        historyPolicy: z.enum(["none", "lastN", "all"]).optional(),
        historyLength: z.int().min(0).max(10_000).optional(),
        initialMessages: boundedArray(
          boundedString(limits.chatText),
          limits.listEntries,
          "messages",
        ).optional(),
        chatPrompts: boundedArray(
          boundedString(limits.chatText),
          limits.listEntries,
          "prompts",
        ).optional(),
        placeholderText: boundedString(limits.chatText).optional(),
      })
      .optional(),
  });

  return {
    sequencePositionSchema,
    resetTriggerSchema,
    stepSchema,
    orchestrationSchema,
    llmSchema,
    durationSchema,
    arrivalPolicySchema,
    agentTemplateSchema,
  };
});

export const {
  sequencePositionSchema,
  resetTriggerSchema,
  stepSchema,
  orchestrationSchema,
  llmSchema,
  durationSchema,
  arrivalPolicySchema,
  agentTemplateSchema,
} = schemas;

export type ArrivalPolicy = z.infer<typeof arrivalPolicySchema>;
export type AgentTemplateInput = z.input<typeof agentTemplateSchema>;
export type AgentTemplate = z.output<typeof agentTemplateSchema>;
export type Step = AgentTemplate["orchestration"]["steps"][number];
export type ResetTrigger = z.output<typeof resetTriggerSchema>;
export type LlmProvider = (typeof llmProviders)[number];
